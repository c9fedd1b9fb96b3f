import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { NavBar } from '../../ui/NavBar';

/** Paid (spec §2 shop/success, param code): the order code, and the way to the orders or back to the shop. */
export default function PaymentSuccess() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  return (
    <div className="page">
      <NavBar title={t('order.successTitle')} />
      <Result
        status="success"
        title={t('order.successTitle')}
        description={code ? t('order.successCode', { code }) : undefined}
      />
      <div className="page-actions">
        <Button block color="primary" onClick={() => open('shop/user-order')}>
          {t('order.viewOrders')}
        </Button>
      </div>
      <div className="page-actions">
        <Button block onClick={() => open('pages/shop/index')}>
          {t('order.keepShopping')}
        </Button>
      </div>
    </div>
  );
}
