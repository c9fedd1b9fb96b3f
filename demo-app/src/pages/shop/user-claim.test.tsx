// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../../features/api/fake-xhr';
import { claimProblem } from '../../features/shop/claims';
import { fakeClaim } from '../../features/shop/fake-claims';
import { fakeOrder, fakeShop } from '../../features/shop/fake-shop';
import { canApplyForRefund } from '../../features/shop/refunds';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import FileClaim from './user-claim';
import ApplyForRefund from './user-drawback';
import MyOrders from './user-order';
import OrderView from './user-order-view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';
const DAY = 86_400_000;
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers, ...uploadHandlers(UPLOAD_URL));

const GREEN_TEA = { product_id: 'p2', title: 'Green tea', image: 'https://files.test/p2.png', price: 12.5, num: 2 };
const shipped = {
  status: 'shipped',
  pay_method: 'balance',
  paid_at: 1_700_000_100_000,
  shipped_at: 1_700_000_200_000,
  logistics: { company: 'SF Express', number: 'SF1234567' },
} as const;
const completed = { ...shipped, status: 'completed', completed_at: 1_700_000_300_000 } as const;
const BOTH = { damage: true, counterfeit: true };
const damageUntil = Date.now() + 2 * DAY;
const counterfeitUntil = Date.now() + 80 * DAY;

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  shop.reset();
  shop.state.orders = [
    fakeOrder('o6', {
      ...completed,
      items: [GREEN_TEA],
      total: 25,
      return_until: Date.now() + 6 * DAY,
      claimable: BOTH,
      damage_until: damageUntil,
      counterfeit_until: counterfeitUntil,
    }),
    fakeOrder('o5', { ...shipped, claimable: BOTH }),
    fakeOrder('o4', {
      ...completed,
      status: 'refunded',
      closed_at: 1_700_000_600_000,
      claim: fakeClaim({
        kind: 'counterfeit',
        status: 'upheld',
        reason: 'The seal is forged',
        refund: 12.5,
        compensation: 50,
        decided_at: 1_700_000_500_000,
      }),
    }),
    fakeOrder('o3', { ...shipped, claim: fakeClaim() }),
    fakeOrder('o2', {
      ...completed,
      claimable: { damage: false, counterfeit: true },
      counterfeit_until: counterfeitUntil,
      claim: fakeClaim({ status: 'rejected', reason: 'Photos show no damage', decided_at: 1_700_000_500_000 }),
    }),
  ];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/user-order" element={<MyOrders />} />
        <Route path="/shop/user-order-view" element={<OrderView />} />
        <Route path="/shop/user-claim" element={<FileClaim />} />
        <Route path="/shop/user-drawback" element={<ApplyForRefund />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
/** The page, without the dialogs and toasts layered over it. */
const page = () => within(screen.getByTestId('page'));
const click = (name: string) => step(() => fireEvent.click(page().getByRole('button', { name })));
const button = (name: string | RegExp) => page().queryByRole('button', { name });
const dialog = () => screen.getAllByRole('dialog').at(-1) as HTMLElement;
const asks = (text: string) => vi.waitFor(() => expect(within(dialog()).getByText(text)).toBeTruthy());
const answer = (name: string) => step(() => fireEvent.click(within(dialog()).getByRole('button', { name })));
const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const pick = (...files: File[]) =>
  step(() => fireEvent.change(screen.getByLabelText('Add a photo', { selector: 'input' }), { target: { files } }));
const status = () => screen.getByTestId('claim-status').textContent;

/** Lets the storage take the `n`th upload (from 0) once it has posted; resolves with the file's URL. */
async function store(n: number): Promise<string> {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(n));
  const request = FakeXhr.sent[n] as FakeXhr;
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
  return `${UPLOAD_URL}/${key}`;
}

describe('shop/user-order-view: what the buyer may claim', () => {
  it('offers Report damage and Report counterfeit as the order allows, each with its deadline, opening the form', async () => {
    renderPages('/shop/user-order-view?id=o6');
    await shows('Report damage');
    expect(button('Report counterfeit')).toBeTruthy();
    const date = (ms: number) => new Date(ms).toLocaleString('en');
    expect(screen.getByTestId('claim-until-damage').textContent).toBe(
      `Damage can be reported until ${date(damageUntil)}`,
    );
    expect(screen.getByTestId('claim-until-counterfeit').textContent).toBe(
      `A counterfeit can be reported until ${date(counterfeitUntil)}`,
    );
    await click('Report counterfeit');
    expect(where()).toBe('/shop/user-claim?id=o6&kind=counterfeit');
  });

  it('offers a shipped order both kinds without a deadline, whose window has not started', async () => {
    renderPages('/shop/user-order-view?id=o5');
    await shows('Report damage');
    expect(button('Report counterfeit')).toBeTruthy();
    expect(screen.queryByTestId('claim-until-damage')).toBeNull();
    expect(screen.queryByTestId('claim-until-counterfeit')).toBeNull();
  });

  it('offers only what the order allows: a kind decided before, or none, is not offered', async () => {
    renderPages('/shop/user-order-view?id=o2');
    await shows('Report counterfeit');
    expect(button('Report damage')).toBeNull();
    cleanup();
    renderPages('/shop/user-order-view?id=o4');
    await vi.waitFor(() => expect(screen.getByTestId('order-status').textContent).toBe('Refunded'));
    expect(screen.queryByTestId('claim-offer')).toBeNull();
    expect(button(/^Report/)).toBeNull();
  });
});

describe('shop/user-claim: the buyer files a claim', () => {
  it('checks the description and photos first, uploads the photos on Submit, files the claim and opens the order', async () => {
    renderPages('/shop/user-claim?id=o6&kind=damage');
    await shows('Green tea');
    expect(page().getByText('¥25.00')).toBeTruthy();
    expect(screen.getByTestId('claim-hint').textContent).toContain('you keep the goods');
    const submit = () => click('Submit claim');

    await submit();
    await shows('Please describe the problem: 1 to 100 characters');
    type('Description', 'x'.repeat(101));
    expect(screen.getByText('101/100')).toBeTruthy();
    await submit();
    type('Description', '  The spout is broken off.  ');
    expect(screen.getByText('24/100')).toBeTruthy();
    await submit();
    await shows('Please add 1 to 3 photos');
    expect(calls('shop/claim_add')).toEqual([]);

    await pick(png('a.png'), png('b.png'));
    expect(screen.getAllByRole('img', { name: /^Photo \d$/ })).toHaveLength(2);
    // Picked photos stay on the device until the claim is submitted.
    expect(FakeXhr.sent).toEqual([]);
    await submit();
    const first = await store(0);
    const second = await store(1);
    await shows('Claim filed: the platform will decide');
    expect(FakeXhr.sent.map((xhr) => xhr.form().at(-1)?.[1])).toEqual(['a.png (image/png)', 'b.png (image/png)']);
    expect(calls('shop/claim_add')).toEqual([
      expect.objectContaining({
        id: 'o6',
        kind: 'damage',
        description: 'The spout is broken off.',
        images: [first, second],
        token: USER.token,
      }),
    ]);
    expect(where()).toBe('/shop/user-order-view?id=o6');
    await vi.waitFor(() => expect(status()).toBe('Awaiting the platform'));
    expect(page().getByText('Damage claim')).toBeTruthy();
    expect(page().getByText('The spout is broken off.')).toBeTruthy();
    expect(screen.getByAltText('Photo 2').getAttribute('src')).toBe(second);
    // While the claim waits, nothing else is claimed nor refunded.
    expect(button('Report damage')).toBeNull();
    expect(button('Report counterfeit')).toBeNull();
    expect(button('Return for refund')).toBeNull();
    expect(button('Cancel claim')).toBeTruthy();
  });

  it("shows the server's refusal in the app's words and stays on the form", async () => {
    shop.state.refuse['shop/claim_add'] = { err: 'the time to claim this has passed', code: 'claim_window_passed' };
    renderPages('/shop/user-claim?id=o6&kind=counterfeit');
    await shows('Green tea');
    expect(screen.getByTestId('claim-hint').textContent).toContain('with 4 times it as compensation');
    type('Description', 'The seal is fake');
    await pick(png('seal.png'));
    await click('Submit claim');
    await store(0);
    await shows('The time to claim this has passed');
    expect(where()).toBe('/shop/user-claim?id=o6&kind=counterfeit');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Description').value).toBe('The seal is fake');
    expect(page().getByRole('button', { name: 'Submit claim' })).toBeTruthy();
  });

  it('says why an order cannot be claimed instead of the form, with a way back to it', async () => {
    const cases = [
      ['/shop/user-claim?id=o3&kind=counterfeit', 'A claim on this order is waiting for the platform'],
      ['/shop/user-claim?id=o2&kind=damage', 'This claim was already decided for this order'],
      ['/shop/user-claim?id=o4&kind=damage', 'Damage cannot be reported on this order now'],
      ['/shop/user-claim?id=o6&kind=refund', 'A claim is for damage or for a counterfeit'],
    ] as const;
    for (const [path, text] of cases) {
      renderPages(path);
      await shows(text);
      expect(screen.queryByLabelText('Description')).toBeNull();
      expect(button('Submit claim')).toBeNull();
      cleanup();
    }
    renderPages('/shop/user-claim?id=o3&kind=damage');
    await shows('A claim on this order is waiting for the platform');
    await click('View the order');
    expect(where()).toBe('/shop/user-order-view?id=o3');
  });

  it('checks a claim as the server does', () => {
    expect(claimProblem({ description: '好'.repeat(100), images: 3 })).toBeUndefined();
    expect(claimProblem({ description: ' \n ', images: 1 })).toBe('claim_description_invalid');
    expect(claimProblem({ description: 'x'.repeat(101), images: 1 })).toBe('claim_description_invalid');
    expect(claimProblem({ description: 'Broken', images: 0 })).toBe('claim_images_invalid');
    expect(claimProblem({ description: 'Broken', images: 4 })).toBe('claim_images_invalid');
  });
});

describe('shop/user-order-view: the claim and where it stands', () => {
  it('cancels a pending claim only once the buyer agrees; then a refund can be asked for again', async () => {
    shop.state.orders[3] = fakeOrder('o3', { ...shipped, claim: fakeClaim() });
    renderPages('/shop/user-order-view?id=o3');
    await vi.waitFor(() => expect(status()).toBe('Awaiting the platform'));
    expect(page().getByText('The teapot arrived cracked.')).toBeTruthy();
    expect(screen.getByAltText('Photo 1').getAttribute('src')).toBe('https://files.test/claim-1.png');
    // A pending claim holds any refund.
    expect(button('Apply for refund')).toBeNull();

    await click('Cancel claim');
    await asks('Cancel this claim? You can file it again while its time lasts.');
    await answer('Keep');
    expect(calls('shop/claim_cancel')).toEqual([]);
    await click('Cancel claim');
    await answer('Cancel claim');
    await shows('Claim cancelled');
    expect(calls('shop/claim_cancel')).toEqual([expect.objectContaining({ id: 'o3', token: USER.token })]);
    await vi.waitFor(() => expect(screen.queryByTestId('claim-status')).toBeNull());
    expect(button('Apply for refund')).toBeTruthy();
  });

  it("shows an upheld claim's refund and compensation, and a rejected one's reason", async () => {
    renderPages('/shop/user-order-view?id=o4');
    await vi.waitFor(() => expect(status()).toBe('Upheld'));
    const claim = within(page().getByText('Counterfeit claim').closest('.adm-list') as HTMLElement);
    expect(claim.getByText('The seal is forged')).toBeTruthy();
    const row = (label: string) => claim.getByText(label).closest('.adm-list-item') as HTMLElement;
    expect(within(row('Refunded')).getByText('¥12.50')).toBeTruthy();
    expect(within(row('Compensation')).getByText('¥50.00')).toBeTruthy();
    expect(claim.getByText('Decided at')).toBeTruthy();
    expect(button('Cancel claim')).toBeNull();
    cleanup();
    renderPages('/shop/user-order-view?id=o2');
    await vi.waitFor(() => expect(status()).toBe('Rejected'));
    expect(page().getByText('Photos show no damage')).toBeTruthy();
    expect(page().queryByText('Refunded')).toBeNull();
    expect(page().queryByText('Compensation')).toBeNull();
  });

  it('hides a cancelled claim', async () => {
    shop.state.orders[3] = fakeOrder('o3', { ...shipped, claim: fakeClaim({ status: 'cancelled' }) });
    renderPages('/shop/user-order-view?id=o3');
    await shows('Apply for refund');
    expect(screen.queryByTestId('claim-status')).toBeNull();
  });

  it('says on the refund form that a pending claim holds the refund', async () => {
    expect(canApplyForRefund(fakeOrder('o9', { ...shipped, claim: fakeClaim() }))).toBe(false);
    renderPages('/shop/user-drawback?id=o3');
    await shows('A claim on this order is waiting for the platform');
    expect(button('Submit refund')).toBeNull();
  });
});

describe('shop/user-order: claims in my orders', () => {
  it("shows each order's claim and where it stands, but not a cancelled one", async () => {
    shop.state.orders[4] = fakeOrder('o2', { ...completed, claim: fakeClaim({ status: 'cancelled' }) });
    renderPages('/shop/user-order');
    await shows('Green tea');
    const summaries = screen.getAllByTestId('claim-summary').map((summary) => summary.textContent);
    expect(summaries).toEqual(['Counterfeit claimUpheld', 'Damage claimAwaiting the platform']);
  });
});
