import { createContext, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Cart } from '../features/shop/cart';

const CartContext = createContext<Cart | null>(null);

/** Holds the app's one {@link Cart}, so that every page and the cart count (spec §3 shared app state) agree. */
export function CartProvider({ children }: { children: ReactNode }) {
  const [cart] = useState(() => new Cart());
  return <CartContext.Provider value={cart}>{children}</CartContext.Provider>;
}

/** The cart as a page uses it: its ids (most recent last), their count, and the changes. */
export interface CartState {
  ids: readonly string[];
  count: number;
  add: (id: string) => void;
  remove: (ids: readonly string[]) => void;
}

/** The cart of the nearest {@link CartProvider}; re-renders when it changes. */
export function useCart(): CartState {
  const cart = useContext(CartContext);
  if (!cart) throw new Error('useCart: no CartProvider above this component');
  const ids = useSyncExternalStore(cart.subscribe, cart.getSnapshot, cart.getSnapshot);
  return useMemo(
    () => ({ ids, count: ids.length, add: (id) => cart.add(id), remove: (gone) => cart.remove(gone) }),
    [cart, ids],
  );
}
