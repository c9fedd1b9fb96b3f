import { Button, Input, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { AgreementCheck } from '../public/LegalDocument';

/**
 * The amount of a withdrawal (coins' or a seller's income): whole yuan from `min` to `max`, with **All** filling in
 * `all` (never over `max`) and `rule` under it.
 */
export function WithdrawAmount(props: {
  value: string;
  onChange: (value: string) => void;
  all: number;
  rule: string;
  min: number;
  max: number;
}) {
  const { t } = useTranslation();
  const { min, max } = props;
  return (
    <List header={t('withdraw.amount')}>
      <List.Item
        extra={
          <button
            type="button"
            className="feedback-mine"
            onClick={() => props.onChange(String(Math.min(max, props.all)))}
          >
            {t('withdraw.all')}
          </button>
        }
        description={props.rule}
      >
        <Input
          aria-label={t('withdraw.amount')}
          inputMode="numeric"
          value={props.value}
          onChange={props.onChange}
          placeholder={t('withdraw.amountPlaceholder', { min, max })}
        />
      </List.Item>
    </List>
  );
}

/** The withdrawal agreement's box (spec §5 "the withdrawal agreement must be agreed first") and **Withdraw**. */
export function WithdrawSubmit(props: {
  agree: boolean;
  onAgree: (agree: boolean) => void;
  sending: boolean;
  onSend: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="page-actions">
      <AgreementCheck
        doc="withdrawalAgreement"
        checked={props.agree}
        onChange={props.onAgree}
        lead={t('withdraw.agree')}
        name={t('withdraw.agreement')}
      />
      <Button block color="primary" loading={props.sending} onClick={props.onSend}>
        {t('withdraw.submit')}
      </Button>
    </div>
  );
}
