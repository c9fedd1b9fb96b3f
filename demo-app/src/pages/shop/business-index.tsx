import { useQuery } from '@tanstack/react-query';
import { Badge, Button, List, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { SHOP_QUERY, shopInfo, type ShopInfo } from '../../features/shop/api';
import { shopWithdrawalInfo } from '../../features/shop/withdrawals';
import { ShopHead } from '../../features/shop/ShopHead';
import { NavBar } from '../../ui/NavBar';
import './shop.css';

/** The seller's tools, each a page of the business area (spec §1 "products, orders, shipping, announcements, review management and withdrawal"). */
const TOOLS = [
  ['shop/business-list', 'shop.products'],
  ['shop/business-add', 'shop.addProduct'],
  ['shop/business-order', 'shop.orders'],
  ['shop/business-ping', 'shop.reviews'],
  ['shop/business-gonggao', 'shop.announcements'],
  ['shop/business-tixian', 'shop.withdraw'],
] as const;

/** How many announcements the seller has not read, as a badge: none when all are read, 99+ past 99. */
function UnreadBadge({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <Badge
      content={
        <span data-testid="announcements-unread" aria-label={t('announcement.unreadCount', { count })}>
          {count > 99 ? '99+' : count}
        </span>
      }
    />
  );
}

/** The open shop's head and the seller's tools; before that, where the application stands and a way to it. */
function Business({ info }: { info: ShopInfo }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const { shop } = info;
  // The Withdraw entry shows the income that may be withdrawn.
  const payout = useQuery({
    queryKey: [SHOP_QUERY, 'withdraw', user?.id, 'info'],
    queryFn: () => shopWithdrawalInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null && shop?.status === 'approved',
    retry: false,
  });
  if (shop?.status !== 'approved') {
    const [title, action] =
      shop?.status === 'pending'
        ? [t('shop.pending'), t('shop.viewApplication')]
        : shop?.status === 'rejected'
          ? [t('shop.rejected', { reason: shop.reason }), t('shop.resubmit')]
          : [t('shop.none'), t('shop.apply')];
    return (
      <>
        <Result
          status={shop?.status === 'pending' ? 'waiting' : 'info'}
          title={title}
          description={t('shop.noneHint')}
        />
        <div className="page-actions">
          <Button block color="primary" onClick={() => open('shop/user-add')}>
            {action}
          </Button>
        </div>
      </>
    );
  }
  return (
    <>
      <ShopHead shop={shop} />
      <List>
        {TOOLS.map(([path, label]) => (
          <List.Item
            key={path}
            onClick={() => open(path)}
            extra={
              path === 'shop/business-gonggao' ? (
                <UnreadBadge count={info.unread_announcements} />
              ) : (
                path === 'shop/business-tixian' &&
                payout.data && (
                  <span data-testid="withdrawable-entry">
                    {t('shopWithdraw.entry', { yuan: payout.data.withdrawable })}
                  </span>
                )
              )
            }
          >
            {t(label)}
          </List.Item>
        ))}
      </List>
    </>
  );
}

/** My shop (spec §2 shop/business-index): the seller's home. */
export default function BusinessIndex() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const query = useQuery({
    queryKey: [SHOP_QUERY, user?.id],
    queryFn: () => shopInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('shop.businessTitle')} />
      <QueryView query={query}>{(info) => <Business info={info} />}</QueryView>
    </div>
  );
}
