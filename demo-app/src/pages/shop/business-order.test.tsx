// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeOrder, fakeShop, openShop } from '../../features/shop/fake-shop';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import BusinessOrders from './business-order';
import ShipOrder from './business-send';

const USER = { token: 'seller-token', id: '7', username: 'Bob', img: '' };
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.myShop = openShop();
  shop.state.orders = [
    fakeOrder('o4', { status: 'paid', pay_method: 'balance', paid_at: 1 }),
    fakeOrder('o3', { address: { name: 'Han Meimei', phone: '13900139000', region: 'Beijing', detail: 'Road 2' } }),
    fakeOrder('o2', { status: 'shipped', logistics: { company: 'SF Express', number: 'SF1' }, paid_at: 1 }),
    fakeOrder('o1', { shop: { id: 's2', name: 'Blue Cups', icon: '' } }),
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/business-order" element={<BusinessOrders />} />
        <Route path="/shop/business-send" element={<ShipOrder />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const cards = () => screen.getAllByTestId('order');
const tab = (name: string) => within(screen.getByRole('tablist')).getByText(name);
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const ship = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Ship' })));

describe('shop/business-order and business-send: the seller ships', () => {
  it("lists the shop's orders by the seller's tabs, the first one first", async () => {
    renderPages('/shop/business-order');
    await shows('Receiver: Han Meimei');
    expect(cards()).toHaveLength(1);
    expect(calls('shop/business_order')[0]).toMatchObject({ status: 'unpaid', token: USER.token });
    for (const name of ['Unpaid', 'Awaiting delivery', 'Shipped', 'Successful', 'Closed'])
      expect(tab(name)).toBeTruthy();
    // Only a paid order is shipped.
    expect(screen.queryByRole('button', { name: 'Ship' })).toBeNull();
    await step(() => fireEvent.click(tab('Shipped')));
    await vi.waitFor(() => expect(calls('shop/business_order').at(-1)).toMatchObject({ status: 'shipped' }));
    await vi.waitFor(() => expect(within(cards()[0] as HTMLElement).getByText('Receiver: Li Lei')).toBeTruthy());
    expect(cards()).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Ship' })).toBeNull();
  });

  it('ships a paid order: the address and items, then logistics checked before they are sent', async () => {
    renderPages('/shop/business-order?status=paid');
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    expect(tab('Awaiting delivery').closest('[role="tab"]')?.getAttribute('aria-selected')).toBe('true');
    await ship();
    expect(where()).toBe('/shop/business-send?id=o4');
    await shows(/West Lake Road 1/);
    expect(screen.getByText('13800138000')).toBeTruthy();
    expect(screen.getByText('Product p1')).toBeTruthy();

    for (const [company, number, message] of [
      ['', '', 'Enter the logistics company: 1 to 20 characters'],
      ['  ', 'SF1234', 'Enter the logistics company: 1 to 20 characters'],
      ['SF Express', '', 'Enter the shipment number: 4 to 40 letters, digits or -'],
      ['SF Express', 'SF1', 'Enter the shipment number: 4 to 40 letters, digits or -'],
      ['SF Express', 'SF 1234', 'Enter the shipment number: 4 to 40 letters, digits or -'],
      ['SF Express', 'SF#1234', 'Enter the shipment number: 4 to 40 letters, digits or -'],
    ] as const) {
      type('Logistics company', company);
      type('Shipment number', number);
      await ship();
      await shows(message);
    }
    expect(calls('shop/business_send')).toEqual([]);

    type('Shipment number', ' SF-1234567 ');
    await ship();
    // The toast says so; the tab and the cards say "Shipped" too, once the list is back.
    await vi.waitFor(() =>
      expect(screen.getAllByText('Shipped').some((element) => element.closest('.adm-toast-main'))).toBe(true),
    );
    expect(calls('shop/business_send')).toEqual([
      expect.objectContaining({ id: 'o4', company: 'SF Express', number: 'SF-1234567', token: USER.token }),
    ]);
    expect(where()).toBe('/shop/business-order?status=shipped');
    await vi.waitFor(() => expect(cards()).toHaveLength(2));
    expect(shop.state.orders[0]).toMatchObject({ status: 'shipped', logistics: { number: 'SF-1234567' } });
  });

  it("shows the server's refusal, and offers no form for an order not awaiting delivery", async () => {
    shop.state.refuse['shop/business_send'] = {
      err: 'please enter the logistics company and shipment number',
      code: 'logistics_invalid',
    };
    renderPages('/shop/business-send?id=o4');
    await shows(/West Lake Road 1/);
    type('Logistics company', 'SF Express');
    type('Shipment number', 'SF1234567');
    await ship();
    await shows('Please enter the logistics company and shipment number');
    expect(where()).toBe('/shop/business-send?id=o4');
    cleanup();
    renderPages('/shop/business-send?id=o2');
    await shows('This order is not awaiting delivery');
    expect(screen.queryByLabelText('Logistics company')).toBeNull();
  });
});
