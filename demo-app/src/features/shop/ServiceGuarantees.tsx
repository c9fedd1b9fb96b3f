import { Button, List, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GUARANTEES, GUARANTEE_VALUES } from './guarantees';
import './guarantees.css';

/**
 * A product's service guarantees (spec §9): a row of chips (ships within 48 h, 7-day no-reason return, damage refund,
 * late-delivery compensation, counterfeit compensation) that opens a sheet explaining each.
 */
export function ServiceGuarantees() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <List>
        <List.Item onClick={() => setOpen(true)} aria-label={t('guarantee.open')}>
          <ul className="guarantee-chips" data-testid="guarantees">
            {GUARANTEES.map((name) => (
              <li key={name} className="guarantee-chip">
                {t(`guarantee.${name}_chip`, GUARANTEE_VALUES[name])}
              </li>
            ))}
          </ul>
        </List.Item>
      </List>
      <Popup visible={open} onMaskClick={close} showCloseButton onClose={close} bodyClassName="guarantee-sheet">
        <section role="dialog" aria-label={t('guarantee.title')}>
          <h2>{t('guarantee.title')}</h2>
          <List>
            {GUARANTEES.map((name) => (
              <List.Item
                key={name}
                data-testid={`guarantee-${name}`}
                description={t(`guarantee.${name}_text`, GUARANTEE_VALUES[name])}
              >
                {t(`guarantee.${name}_title`, GUARANTEE_VALUES[name])}
              </List.Item>
            ))}
          </List>
          <Button block color="primary" onClick={close}>
            {t('guarantee.close')}
          </Button>
        </section>
      </Popup>
    </>
  );
}
