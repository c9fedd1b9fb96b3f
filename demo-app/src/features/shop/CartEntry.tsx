import { Badge } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useCart } from '../../app/cart';
import { useNavigateTo } from '../../app/navigation';
import './orders.css';

/** The cart's count as a badge shows it: none when empty, 99+ past 99. */
export function cartBadge(count: number): string | null {
  if (count === 0) return null;
  return count > 99 ? '99+' : String(count);
}

/** A text button opening the cart, with the cart count (spec §3 shared app state) as its badge. */
export function CartEntry() {
  const { t } = useTranslation();
  const { count } = useCart();
  const open = useNavigateTo();
  const badge = cartBadge(count);
  return (
    <Badge
      content={badge && <span data-testid="cart-count">{badge}</span>}
      style={{ '--right': '-6px', marginRight: '6px' }}
    >
      <button type="button" className="feedback-mine" onClick={() => open('shop/cart')}>
        {t('cart.title')}
      </button>
    </Badge>
  );
}
