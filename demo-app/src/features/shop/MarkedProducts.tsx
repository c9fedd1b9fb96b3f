import { Checkbox, SwipeAction, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { yuan } from '../wallet/api';
import { daysAgo, markAvailable, markDays, type MarkedProduct } from './marks';
import './marks.css';
import './orders.css';
import './products.css';

/** In edit mode, which products are picked and how one is picked or let go. */
export interface MarkPicking {
  picked: ReadonlySet<string>;
  onPick: (id: string, picked: boolean) => void;
}

/** What a list of the member's products does with them: pick them in edit mode, or take one out. */
export interface MarkedProductsProps {
  products: readonly MarkedProduct[];
  /** Edit mode: a checkbox on each product; none otherwise. */
  picking?: MarkPicking | undefined;
  /** Takes product `id` out of the list (its swipe action **Remove**, out of edit mode). */
  onRemove: (id: string) => void;
}

/**
 * One product of the member's favourites or browsing history: its image, title and price, opening its page; one no
 * longer on sale greyed as "No longer available", which does not open. Swiped, it offers **Remove**; in edit mode it
 * has a checkbox instead.
 */
function MarkedProductRow({
  product,
  picking,
  onRemove,
}: { product: MarkedProduct } & Pick<MarkedProductsProps, 'picking' | 'onRemove'>) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const available = markAvailable(product);
  const picked = picking?.picked.has(product.id) ?? false;
  const content = (
    <>
      <img className="product-thumb" src={product.images[0]} alt="" />
      <span className="mark-body">
        <span className="cart-line-title">{product.title}</span>
        <span className="cart-line-foot">
          <span className="product-price">{yuan(product.price)}</span>
          {!available ? (
            <Tag color="default">{t('marks.unavailable')}</Tag>
          ) : (
            product.stock === 0 && <span className="cart-line-unavailable">{t('product.soldOut')}</span>
          )}
        </span>
      </span>
    </>
  );
  return (
    <li data-testid="marked-product">
      <SwipeAction
        rightActions={
          picking
            ? []
            : [
                {
                  key: 'remove',
                  color: 'danger',
                  text: (
                    <>
                      {t('marks.remove')}
                      <span className="visually-hidden"> {product.title}</span>
                    </>
                  ),
                  onClick: () => onRemove(product.id),
                },
              ]
        }
      >
        <div className={available ? 'cart-line' : 'cart-line mark-unavailable'}>
          {picking && (
            <Checkbox checked={picked} onChange={(on) => picking.onPick(product.id, on)}>
              <span className="visually-hidden">{t('marks.select', { title: product.title })}</span>
            </Checkbox>
          )}
          {available && !picking ? (
            <button
              type="button"
              className="mark-open"
              onClick={() => open(`shop/view?id=${encodeURIComponent(product.id)}`)}
            >
              {content}
            </button>
          ) : (
            // In edit mode a tap on the product picks it, as on its checkbox.
            <div className="mark-open" onClick={() => picking?.onPick(product.id, !picked)}>
              {content}
            </div>
          )}
        </div>
      </SwipeAction>
    </li>
  );
}

/** The member's favourites or browsing history as a list, in their order (spec §2 shop/shoucang, shop/history). */
export function MarkedProducts({ products, picking, onRemove }: MarkedProductsProps) {
  return (
    <ul className="cart-lines">
      {products.map((product) => (
        <MarkedProductRow key={product.id} product={product} picking={picking} onRemove={onRemove} />
      ))}
    </ul>
  );
}

/** The name of the day starting at `day`: Today, Yesterday, else its date (with the year when not this year's). */
function DayHeading({ day, now }: { day: number; now: number }) {
  const { t, i18n } = useTranslation();
  const ago = daysAgo(day, now);
  const sameYear = new Date(day).getFullYear() === new Date(now).getFullYear();
  const date = new Intl.DateTimeFormat(i18n.language, {
    ...(!sameYear && { year: 'numeric' }),
    month: 'long',
    day: 'numeric',
  }).format(day);
  return (
    <h2 className="mark-day" data-testid="mark-day">
      {ago === 0 ? t('history.today') : ago === 1 ? t('history.yesterday') : date}
    </h2>
  );
}

/** {@link MarkedProducts} grouped by the day each entered the list (`marked_at`), the latest day first. */
export function MarkedProductsByDay({ products, picking, onRemove }: MarkedProductsProps) {
  const now = Date.now();
  return markDays(products).map(({ day, products: ofDay }) => (
    <section key={day} data-testid="mark-day-group">
      <DayHeading day={day} now={now} />
      <MarkedProducts products={ofDay} picking={picking} onRemove={onRemove} />
    </section>
  ));
}
