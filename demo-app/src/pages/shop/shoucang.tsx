import { Button, Checkbox, Dialog, ErrorBlock } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { PagedList } from '../../features/api/PagedList';
import { MarkedProducts } from '../../features/shop/MarkedProducts';
import { useMarkList } from '../../features/shop/useMarkList';
import { NavBar } from '../../ui/NavBar';
import '../member/feedback.css';

/**
 * My favourites (spec §2 shop/shoucang; §1 "favourites"): the products the member keeps, the latest kept first,
 * twenty at a time, each opening its page unless no longer on sale (greyed). Each is removed by its swipe action;
 * **Edit** gives each a checkbox, **Select all** (of those shown) and **Remove**, which asks first.
 */
export default function Favourites() {
  const { t } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const { list, remove } = useMarkList('favourites');
  const [editing, setEditing] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  if (!user) return null;

  const { items } = list;
  const edit = editing && items.length > 0;
  // Only products still listed count: one removed since drops out of the choice.
  const chosen = items.filter((product) => picked.has(product.id)).map((product) => product.id);
  const all = chosen.length > 0 && chosen.length === items.length;
  const pick = (id: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const removeChosen = async () => {
    const ok = await Dialog.confirm({
      content: t('favourite.removeConfirm', { count: chosen.length }),
      confirmText: t('marks.remove'),
      cancelText: t('common.cancel'),
    });
    if (ok && (await remove(chosen, t('marks.removed')))) setPicked(new Set());
  };

  return (
    <div className="page">
      <NavBar
        title={t('favourite.title')}
        right={
          items.length > 0 && (
            <button
              type="button"
              className="feedback-mine"
              onClick={() => {
                setEditing(!edit);
                setPicked(new Set());
              }}
            >
              {edit ? t('marks.done') : t('marks.edit')}
            </button>
          )
        }
      />
      <PagedList
        list={list}
        empty={
          <ErrorBlock status="empty" title={t('favourite.none')} description="">
            <Button color="primary" onClick={() => open('pages/shop/index')}>
              {t('cart.goShopping')}
            </Button>
          </ErrorBlock>
        }
      >
        {(products) => (
          <MarkedProducts
            products={products}
            picking={edit ? { picked, onPick: pick } : undefined}
            onRemove={(id) => void remove([id], t('marks.removed'))}
          />
        )}
      </PagedList>
      {edit && (
        <div className="cart-bar mark-bar">
          <Checkbox
            checked={all}
            indeterminate={chosen.length > 0 && !all}
            onChange={(on) => setPicked(new Set(on ? items.map((product) => product.id) : []))}
          >
            {t('marks.selectAll')}
          </Checkbox>
          <Button color="danger" disabled={chosen.length === 0} onClick={() => void removeChosen()}>
            {t('marks.removeCount', { count: chosen.length })}
          </Button>
        </div>
      )}
    </div>
  );
}
