import { ErrorBlock, List, Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { yuan } from '../wallet/api';
import type { GoodsItem } from './api';
import '../shop/products.css';

/** The goods of a live as a sheet: each with its image, title and price, opening its product page. */
export function GoodsPopup({
  goods,
  visible,
  onClose,
}: {
  goods: readonly GoodsItem[];
  visible: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  return (
    <Popup visible={visible} onMaskClick={onClose} showCloseButton onClose={onClose} bodyClassName="live-sheet">
      <h2>{t('live.goodsTitle')}</h2>
      {goods.length === 0 ? (
        <ErrorBlock status="empty" title={t('live.noGoods')} description="" />
      ) : (
        <List>
          {goods.map((item) => (
            <List.Item
              key={item.id}
              data-testid="live-goods"
              prefix={<img className="product-thumb" src={item.img} alt="" />}
              description={yuan(item.price)}
              onClick={() => open(`shop/view?id=${encodeURIComponent(item.id)}`)}
            >
              {item.title}
            </List.Item>
          ))}
        </List>
      )}
    </Popup>
  );
}
