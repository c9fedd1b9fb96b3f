import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, ErrorBlock, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { QueryView } from '../../features/api/QueryView';
import {
  LIVE_LIMITS,
  LIVE_QUERY,
  roomKey,
  roomView,
  setRoomGoods,
  type GoodsItem,
  type RoomDetail,
} from '../../features/live/api';
import { PRODUCTS_QUERY, myProductsOnSale } from '../../features/shop/products';
import { yuan } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/products.css';
import '../../features/live/live.css';

/** One product to tick, with its image, title and price. */
function GoodsChoice({ item, chosen, toggle }: { item: GoodsItem; chosen: boolean; toggle: (id: string) => void }) {
  return (
    <List.Item
      data-testid="live-goods-choice"
      prefix={<img className="product-thumb" src={item.img} alt="" />}
      extra={yuan(item.price)}
    >
      <Checkbox checked={chosen} onChange={() => toggle(item.id)} block>
        {item.title}
      </Checkbox>
    </List.Item>
  );
}

/**
 * The room's goods ticked, then the anchor's other products on sale: at most {@link LIVE_LIMITS.goodsMax}, in the order
 * ticked. Save sets them and goes back.
 */
function GoodsChooser({ room }: { room: RoomDetail }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const [chosen, setChosen] = useState(() => room.goods.map((item) => item.id));
  const [saving, setSaving] = useState(false);
  const inRoom = new Set(room.goods.map((item) => item.id));
  const products = usePagedList(
    [PRODUCTS_QUERY, 'mine', 'on_sale', user?.id],
    (before) => myProductsOnSale(before, context),
    user !== null,
  );

  const toggle = (id: string) => {
    if (chosen.includes(id)) return setChosen(chosen.filter((other) => other !== id));
    if (chosen.length >= LIVE_LIMITS.goodsMax) return toastError(t('live.goodsMax', { max: LIVE_LIMITS.goodsMax }));
    setChosen([...chosen, id]);
  };

  const save = async () => {
    setSaving(true);
    try {
      await setRoomGoods(room.id, chosen, context);
      toast(t('live.saved'));
      await queryClient.invalidateQueries({ queryKey: [LIVE_QUERY] });
      close();
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSaving(false);
    }
  };

  const choice = (item: GoodsItem) => (
    <GoodsChoice key={item.id} item={item} chosen={chosen.includes(item.id)} toggle={toggle} />
  );
  return (
    <>
      {room.goods.length > 0 && <List header={t('live.inRoom')}>{room.goods.map(choice)}</List>}
      <PagedList list={products} empty={<ErrorBlock status="empty" title={t('live.noProducts')} description="" />}>
        {(items) => (
          <List header={t('live.onSale')}>
            {items
              .filter((product) => !inRoom.has(product.id))
              .map((product) =>
                choice({ id: product.id, title: product.title, price: product.price, img: product.images[0] ?? '' }),
              )}
          </List>
        )}
      </PagedList>
      <div className="page-actions live-goods-save">
        <Button block color="primary" loading={saving} onClick={() => void save()}>
          {t('live.saveGoods', { count: chosen.length, max: LIVE_LIMITS.goodsMax })}
        </Button>
      </div>
    </>
  );
}

/** Choose the goods of a live (spec §2 live/shop-add?id=): the anchor's own products on sale. */
export default function ChooseLiveGoods() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const room = useQuery({
    queryKey: roomKey(id, user?.id),
    queryFn: () => roomView(id, { token: user?.token, locale: i18n.language }),
    enabled: user !== null && id !== '',
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('live.chooseGoodsTitle')} />
      {id === '' ? (
        <ErrorBlock status="empty" title={t('errors.live_missing')} description="" />
      ) : (
        <QueryView query={room}>{(detail) => <GoodsChooser room={detail} />}</QueryView>
      )}
    </div>
  );
}
