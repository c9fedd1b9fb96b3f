// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOME_PATH } from '../../app/navigation';
import type { Address } from '../../features/member/addresses';
import { renderApp, shows, step, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Addresses from './address';
import AddressEditor from './address-add';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** The fake server's addresses, the default first, and the calls it got. */
let stored: Address[] = [];
const calls: Array<[string, Record<string, unknown>]> = [];
const sorted = () => [...stored].sort((a, b) => Number(b.is_default) - Number(a.is_default));
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/:call', async ({ request, params }) => {
    const path = String(params['call']);
    const body = (await request.json()) as Record<string, unknown>;
    calls.push([path, body]);
    const fields = {
      name: String(body['name']),
      phone: String(body['phone']),
      region: String(body['region']),
      detail: String(body['detail']),
    };
    const makeDefault = (id: unknown) => (stored = stored.map((a) => ({ ...a, is_default: a.id === id })));
    if (path === 'address_add') {
      const id = `a${stored.length + 1}`;
      stored.push({ id, ...fields, is_default: false });
      if (body['is_default'] === true || stored.length === 1) makeDefault(id);
    } else if (path === 'address_edit') {
      stored = stored.map((a) => (a.id === body['id'] ? { ...a, ...fields } : a));
      if (body['is_default'] === true) makeDefault(body['id']);
    } else if (path === 'address_default') makeDefault(body['id']);
    else if (path === 'address_del') stored = stored.filter((a) => a.id !== body['id']);
    return HttpResponse.json({ ret: sorted() });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  stored = [];
  calls.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <Routes>
      <Route path="/member/address" element={<Addresses />} />
      <Route path="/member/address-add" element={<AddressEditor />} />
      <Route path={HOME_PATH} element={<p>home page</p>} />
    </Routes>,
    { path },
  );
}

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
const save = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
const address = (n: number, isDefault = false): Address => ({
  id: `a${n}`,
  name: `Receiver ${n}`,
  phone: '13800138000',
  region: 'Zhejiang Hangzhou',
  detail: `Road ${n}`,
  is_default: isDefault,
});

describe('member/address-add', () => {
  it('checks every field before saving, then adds the address', async () => {
    renderPages('/member/address-add');
    await save();
    await shows('Enter the receiver (at most 20 characters)');
    fill('Receiver', '  Li Lei ');
    fill('Phone', '1380013800');
    await save();
    await shows('Enter a correct phone number');
    fill('Phone', '+1 202-555-0143');
    await save();
    await shows('Enter the region (at most 60 characters)');
    fill('Region', 'Zhejiang Hangzhou');
    await save();
    await shows('Enter the address (at most 120 characters)');
    expect(calls).toEqual([]);

    fill('Address', 'West Lake Road 1');
    await save();
    await shows('home page');
    expect(calls).toEqual([
      [
        'address_add',
        expect.objectContaining({
          token: USER.token,
          name: 'Li Lei',
          phone: '2025550143',
          quhao: '1',
          region: 'Zhejiang Hangzhou',
          detail: 'West Lake Road 1',
          is_default: false,
        }),
      ],
    ]);
  });

  it('edits an address filled in from the list, and can make it the default', async () => {
    stored = [address(1, true), address(2)];
    renderPages('/member/address-add?id=a2');
    await step(() => undefined);
    await vi.waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Receiver' }).value).toBe('Receiver 2'),
    );
    fill('Address', 'Road 22');
    await step(() => fireEvent.click(screen.getByRole('switch', { name: 'Default address' })));
    await save();
    await shows('home page');
    expect(calls.at(-1)).toEqual([
      'address_edit',
      expect.objectContaining({ id: 'a2', name: 'Receiver 2', detail: 'Road 22', is_default: true }),
    ]);
  });
});

describe('member/address', () => {
  it('lists the default first, makes another the default, deletes after asking, and opens the form', async () => {
    stored = [address(1, true), address(2)];
    renderPages('/member/address');
    await shows('Receiver 1');
    const rows = () => screen.getAllByTestId('address');
    expect(within(rows()[0] as HTMLElement).getByText('Default')).toBeTruthy();

    await step(() => fireEvent.click(within(rows()[1] as HTMLElement).getByText('Default address')));
    await vi.waitFor(() => expect(within(rows()[0] as HTMLElement).getByText('Receiver 2')).toBeTruthy());
    expect(calls.at(-1)).toEqual(['address_default', expect.objectContaining({ id: 'a2' })]);

    await step(() => fireEvent.click(within(rows()[1] as HTMLElement).getByRole('button', { name: 'Delete' })));
    await shows('Delete this address?');
    const dialog = screen.getAllByRole('dialog').at(-1) as HTMLElement;
    await step(() => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' })));
    await vi.waitFor(() => expect(rows()).toHaveLength(1));
    expect(calls.at(-1)).toEqual(['address_del', expect.objectContaining({ id: 'a1' })]);

    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Add an address' })));
    expect(screen.getByRole('textbox', { name: 'Receiver' })).toBeTruthy();
  });

  it('says when there is none, and when the list is full', async () => {
    renderPages('/member/address');
    await shows('No addresses yet');
    cleanup();
    stored = Array.from({ length: 20 }, (_, n) => address(n, n === 0));
    renderPages('/member/address');
    await shows('At most 20 addresses');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'At most 20 addresses' }).disabled).toBe(true);
  });
});
