import { Button, Input, List } from 'antd-mobile';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { LOGISTICS_LIMITS, logisticsProblem, type Logistics } from './orders';

/**
 * A parcel's logistics (spec §3 "Logistics: company, shipment number"): the company (1 to 20 characters) and the
 * shipment number (4 to 40 letters, digits or '-'), checked before `onSubmit` takes them; the button waits while it
 * runs. `id` names the fields' ids, so that two forms never share them.
 */
export function LogisticsForm({
  id,
  header,
  hint,
  submit,
  onSubmit,
}: {
  id: string;
  header: string;
  hint?: ReactNode;
  submit: string;
  onSubmit: (logistics: Logistics) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [company, setCompany] = useState('');
  const [number, setNumber] = useState('');
  const [sending, setSending] = useState(false);

  const send = async () => {
    const problem = logisticsProblem({ company, number });
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    try {
      await onSubmit({ company, number });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <List header={header}>
        {hint && <List.Item>{hint}</List.Item>}
        <List.Item title={<label htmlFor={`${id}-company`}>{t('order.company')}</label>}>
          <Input
            id={`${id}-company`}
            value={company}
            onChange={setCompany}
            maxLength={LOGISTICS_LIMITS.companyMax}
            placeholder={t('order.companyPlaceholder', { max: LOGISTICS_LIMITS.companyMax })}
          />
        </List.Item>
        <List.Item title={<label htmlFor={`${id}-number`}>{t('order.shipmentNumber')}</label>}>
          <Input
            id={`${id}-number`}
            value={number}
            onChange={setNumber}
            maxLength={LOGISTICS_LIMITS.numberMax}
            placeholder={t('order.numberPlaceholder')}
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={sending} onClick={() => void send()}>
          {submit}
        </Button>
      </div>
    </>
  );
}
