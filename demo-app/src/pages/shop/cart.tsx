import { Button, Checkbox, DotLoading, ErrorBlock, Stepper, Tag } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCart } from '../../app/cart';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ORDER_LIMITS, linesTotal, paymentTarget } from '../../features/shop/orders';
import { useProductLines, type ProductLine } from '../../features/shop/useProductLines';
import { yuan } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';

type ReadyLine = Extract<ProductLine, { kind: 'ready' }>;

/** One line of the cart: what its product is now, with its checkbox, its quantity and **Remove**. */
function CartLine({
  line,
  num,
  picked,
  onPick,
  onNum,
  onRemove,
}: {
  line: ProductLine;
  num: number;
  picked: boolean;
  onPick: (picked: boolean) => void;
  onNum: (num: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const title = line.kind === 'ready' ? line.product.title : t('cart.unavailable');
  const selectable = line.kind === 'ready' && line.max > 0;
  const remove = (
    <Button size="mini" fill="none" onClick={onRemove}>
      {t('cart.remove')}
    </Button>
  );
  return (
    <li className="cart-line" data-testid="cart-line">
      <Checkbox checked={selectable && picked} disabled={!selectable} onChange={onPick}>
        <span className="visually-hidden">{t('cart.select', { title })}</span>
      </Checkbox>
      {line.kind === 'ready' && (
        <img
          className="product-thumb"
          src={line.product.images[0]}
          alt=""
          onClick={() => open(`shop/view?id=${encodeURIComponent(line.id)}`)}
        />
      )}
      <div className="cart-line-body">
        {line.kind === 'loading' && <DotLoading color="primary" />}
        {line.kind === 'missing' && (
          <>
            <span>
              <Tag color="default">{t('cart.unavailable')}</Tag>
            </span>
            <span className="cart-line-unavailable">{errorText(line.error, t)}</span>
            <div className="cart-line-foot">{remove}</div>
          </>
        )}
        {line.kind === 'failed' && (
          <>
            <span className="cart-line-unavailable">{errorText(line.error, t)}</span>
            <div className="cart-line-foot">
              <Button size="mini" onClick={line.retry}>
                {t('common.retry')}
              </Button>
              {remove}
            </div>
          </>
        )}
        {line.kind === 'ready' && (
          <>
            <span className="cart-line-title">{line.product.title}</span>
            <div className="cart-line-foot">
              <span className="product-price">{yuan(line.product.price)}</span>
              {line.max > 0 ? (
                <Stepper min={1} max={line.max} digits={0} value={num} onChange={onNum} />
              ) : (
                <span className="cart-line-unavailable">
                  {line.product.status === 'on_sale'
                    ? t('product.soldOut')
                    : t(`product.status_${line.product.status}`)}
                </span>
              )}
            </div>
            <div className="cart-line-foot">{remove}</div>
          </>
        )}
      </div>
    </li>
  );
}

/**
 * The cart (spec §2 shop/cart, §3 "Cart: local list of product ids, most recent last, no duplicates"): each product
 * as `shop/view` gives it now, the most recent first, with a quantity of 1 to its stock (at most 99) and a checkbox;
 * the total of those picked, and **Settle**, which opens the payment page with them. A product gone since cannot be
 * picked, only removed.
 */
export default function CartPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const cart = useCart();
  const open = useNavigateTo();
  const ids = useMemo(() => [...cart.ids].reverse(), [cart.ids]);
  const lines = useProductLines(ids);
  // Quantities and picks live as long as the page; a line's quantity defaults to 1, and nothing starts picked.
  const [nums, setNums] = useState<Readonly<Record<string, number>>>({});
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  if (!user) return null;

  const buyable = lines.filter((line): line is ReadyLine => line.kind === 'ready' && line.max > 0);
  const numOf = (line: ProductLine) => (line.kind === 'ready' ? Math.min(line.max, nums[line.id] ?? 1) : 1);
  const chosen = buyable.filter((line) => picked.has(line.id));
  const total = linesTotal(chosen.map((line) => ({ price: line.product.price, num: numOf(line) })));
  const all = buyable.length > 0 && chosen.length === buyable.length;

  const pick = (id: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const remove = (id: string) => {
    cart.remove([id]);
    pick(id, false);
  };
  const settle = () => {
    if (chosen.length > ORDER_LIMITS.products) return toastError(t('errors.order_items_invalid'));
    open(paymentTarget(chosen.map((line) => ({ id: line.id, num: numOf(line) }))));
  };

  return (
    <div className="page">
      <NavBar title={t('cart.title')} />
      {ids.length === 0 ? (
        <ErrorBlock status="empty" title={t('cart.empty')} description="">
          <Button color="primary" onClick={() => open('pages/shop/index')}>
            {t('cart.goShopping')}
          </Button>
        </ErrorBlock>
      ) : (
        <>
          <ul className="cart-lines">
            {lines.map((line) => (
              <CartLine
                key={line.id}
                line={line}
                num={numOf(line)}
                picked={picked.has(line.id)}
                onPick={(on) => pick(line.id, on)}
                onNum={(num) => setNums((current) => ({ ...current, [line.id]: num }))}
                onRemove={() => remove(line.id)}
              />
            ))}
          </ul>
          <div className="cart-bar">
            <Checkbox
              checked={all}
              indeterminate={chosen.length > 0 && !all}
              disabled={buyable.length === 0}
              onChange={(on) => setPicked(new Set(on ? buyable.map((line) => line.id) : []))}
            >
              {t('cart.selectAll')}
            </Checkbox>
            <span className="cart-bar-total" data-testid="cart-total">
              {t('cart.total', { amount: yuan(total) })}
            </span>
            <Button color="primary" disabled={chosen.length === 0} onClick={settle}>
              {t('cart.settle', { count: chosen.length })}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
