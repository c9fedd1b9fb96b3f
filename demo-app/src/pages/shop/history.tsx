import { Button, Dialog, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { PagedList } from '../../features/api/PagedList';
import { MarkedProductsByDay } from '../../features/shop/MarkedProducts';
import { useMarkList } from '../../features/shop/useMarkList';
import { NavBar } from '../../ui/NavBar';
import '../member/feedback.css';

/**
 * Browsing history (spec §2 shop/history; §1 "browsing history"): the products the member looked at, the latest look
 * first, twenty at a time (the server keeps the latest 100), under the day of the look: Today, Yesterday or the date.
 * Each opens its page unless no longer on sale (greyed) and is removed by its swipe action; **Clear** empties the
 * history after asking.
 */
export default function BrowsingHistory() {
  const { t } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const { list, remove } = useMarkList('history');
  if (!user) return null;

  const clear = async () => {
    const ok = await Dialog.confirm({
      content: t('history.clearConfirm'),
      confirmText: t('history.clear'),
      cancelText: t('common.cancel'),
    });
    if (ok) await remove('all', t('history.cleared'));
  };

  return (
    <div className="page">
      <NavBar
        title={t('history.title')}
        right={
          list.items.length > 0 && (
            <button type="button" className="feedback-mine" onClick={() => void clear()}>
              {t('history.clear')}
            </button>
          )
        }
      />
      <PagedList
        list={list}
        empty={
          <ErrorBlock status="empty" title={t('history.none')} description="">
            <Button color="primary" onClick={() => open('pages/shop/index')}>
              {t('cart.goShopping')}
            </Button>
          </ErrorBlock>
        }
      >
        {(products) => (
          <MarkedProductsByDay products={products} onRemove={(id) => void remove([id], t('marks.removed'))} />
        )}
      </PagedList>
    </div>
  );
}
