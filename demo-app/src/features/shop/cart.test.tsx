// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CartProvider, useCart } from '../../app/cart';
import { CART_KEY, Cart, parseCart, withProduct } from './cart';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('the cart (spec §3: local list of product ids, most recent last, no duplicates)', () => {
  it('keeps ids most recent last; adding one already there moves it last, once', () => {
    const cart = new Cart();
    cart.add('p1');
    cart.add('p2');
    cart.add('p3');
    cart.add('p1');
    expect(cart.getSnapshot()).toEqual(['p2', 'p3', 'p1']);
    expect(cart.count).toBe(3);
    expect(JSON.parse(localStorage.getItem(CART_KEY) ?? '')).toEqual(['p2', 'p3', 'p1']);
  });

  it('removes ids, and survives a new instance reading the same storage', () => {
    const cart = new Cart();
    for (const id of ['p1', 'p2', 'p3']) cart.add(id);
    cart.remove(['p1', 'p3', 'never']);
    expect(new Cart().getSnapshot()).toEqual(['p2']);
    expect(new Cart().count).toBe(1);
  });

  it('reads a damaged or hand-edited list as ids, each once, keeping the later copy', () => {
    expect(parseCart(null)).toEqual([]);
    expect(parseCart('not json')).toEqual([]);
    expect(parseCart('{"p1":1}')).toEqual([]);
    expect(parseCart('["p1", 7, "", "p2", "p1"]')).toEqual(['p2', 'p1']);
    expect(withProduct(['a', 'b'], 'a')).toEqual(['b', 'a']);
  });

  it('gives the same snapshot until the list changes, and tells subscribers of each change', () => {
    const cart = new Cart();
    const first = cart.getSnapshot();
    expect(cart.getSnapshot()).toBe(first);
    const listener = vi.fn();
    const unsubscribe = cart.subscribe(listener);
    cart.add('p1');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(cart.getSnapshot()).not.toBe(first);
    unsubscribe();
    cart.add('p2');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('hears of changes made in another tab while subscribed', () => {
    const cart = new Cart();
    const listener = vi.fn();
    const unsubscribe = cart.subscribe(listener);
    localStorage.setItem(CART_KEY, JSON.stringify(['p9']));
    window.dispatchEvent(new StorageEvent('storage', { key: CART_KEY }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'other' }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(cart.getSnapshot()).toEqual(['p9']);
    unsubscribe();
    window.dispatchEvent(new StorageEvent('storage', { key: CART_KEY }));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('shares one cart and its count with every component under the provider', () => {
    function Count() {
      return <span data-testid="count">{useCart().count}</span>;
    }
    let add: (id: string) => void = () => undefined;
    function Adder() {
      add = useCart().add;
      return null;
    }
    render(
      <CartProvider>
        <Count />
        <Adder />
      </CartProvider>,
    );
    expect(screen.getByTestId('count').textContent).toBe('0');
    act(() => add('p1'));
    act(() => add('p2'));
    act(() => add('p1'));
    expect(screen.getByTestId('count').textContent).toBe('2');
  });
});
