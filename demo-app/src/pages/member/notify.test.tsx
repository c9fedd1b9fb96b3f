// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notice } from '../../features/member/notices';
import { renderApp, shows, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Notifications from './notify';
import NotificationSettings from './sz-notify';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** The fake server's notifications, newest first, and its settings. */
let notices: Notice[] = [];
let settings = { follow: true, comment: true, like: true };
const reads: Array<Record<string, unknown>> = [];
const settingCalls: Array<Record<string, unknown>> = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/notify_list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const before = body['before'];
    const from = typeof before === 'string' ? notices.findIndex((n) => n.id === before) + 1 : 0;
    return HttpResponse.json({ ret: notices.slice(from, from + 20) });
  }),
  http.post('*/index.php/api/member/notify_read', async ({ request }) => {
    reads.push((await request.json()) as Record<string, unknown>);
    notices = notices.map((n) => ({ ...n, read: true }));
    return HttpResponse.json({ ret: { unread: 0 } });
  }),
  http.post('*/index.php/api/member/notify_settings', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    settingCalls.push(body);
    for (const kind of ['follow', 'comment', 'like'] as const) {
      const on = body[kind];
      if (typeof on === 'boolean') settings = { ...settings, [kind]: on };
    }
    return HttpResponse.json({ ret: settings });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  notices = [];
  settings = { follow: true, comment: true, like: true };
  reads.length = 0;
  settingCalls.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderAt(path: string) {
  return renderApp(
    <Routes>
      <Route path="/member/notify" element={<Notifications />} />
      <Route path="/member/sz-notify" element={<NotificationSettings />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

const now = Date.now();
const followNotice = (n: number, read = false): Notice => ({
  id: `n${n}`,
  kind: 'follow',
  actor: { id: `m${n}`, username: `User ${n}`, img: '' },
  data: {},
  created_at: now - n * 60_000 - 1_000,
  read,
});

describe('member/notify', () => {
  it('says when there is nothing, and marks nothing read', async () => {
    renderAt('/member/notify');
    await shows('No notifications yet');
    expect(reads).toEqual([]);
  });

  it('lists followers and certification reviews, marks the unread, then marks them all read', async () => {
    notices = [
      followNotice(0),
      { ...followNotice(1), actor: { id: 'gone', username: '', img: '' } },
      {
        id: 'c1',
        kind: 'certification',
        actor: null,
        data: { status: 'failed', reason: 'The photo is blurred' },
        created_at: now - 3 * 3_600_000,
        read: true,
      },
    ];
    renderAt('/member/notify');
    await shows('User 0 followed you');
    expect(screen.getByText('User gone followed you')).toBeTruthy();
    expect(screen.getByText('Your real-name certification failed: The photo is blurred')).toBeTruthy();
    expect(screen.getAllByText('just now')).toHaveLength(2);
    expect(screen.getByText('3 h ago')).toBeTruthy();
    expect(screen.getAllByTestId('notice').map((n) => n.dataset['read'])).toEqual(['false', 'false', 'true']);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    expect(reads[0]).not.toHaveProperty('id');
  });

  it("opens a follower's home and the certification page", async () => {
    notices = [
      followNotice(3, true),
      {
        id: 'c1',
        kind: 'certification',
        actor: null,
        data: { status: 'passed', reason: '' },
        created_at: now,
        read: true,
      },
    ];
    renderAt('/member/notify');
    await shows('User 3 followed you');
    await act(async () => {
      fireEvent.click(screen.getByText('User 3 followed you'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/user/home?id=m3');
    cleanup();
    renderAt('/member/notify');
    await shows('Your real-name certification has passed');
    await act(async () => {
      fireEvent.click(screen.getByText('Your real-name certification has passed'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/member/renzheng');
    expect(reads).toEqual([]);
  });
  it('says whether a withdrawal was paid or rejected, and opens the withdrawal records', async () => {
    const withdrawal = (id: string, data: Notice['data']): Notice => ({
      id,
      kind: 'withdrawal',
      actor: null,
      data,
      created_at: now,
      read: true,
    });
    notices = [
      withdrawal('w2', { amount: 5, status: 'paid', reason: '' }),
      withdrawal('w1', { amount: 2, status: 'rejected', reason: 'wrong account' }),
    ];
    renderAt('/member/notify');
    await shows('Your withdrawal of 5 yuan has been paid');
    expect(
      screen.getByText('Your withdrawal of 2 yuan was rejected and the coins returned: wrong account'),
    ).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('Your withdrawal of 5 yuan has been paid'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/renwu/tixian_list');
  });

  it("says a seller withdrawal's money is back in the wallet, and opens the seller's withdrawal page", async () => {
    notices = [
      {
        id: 'sw1',
        kind: 'withdrawal',
        actor: null,
        data: { amount: 20, status: 'rejected', reason: 'wrong name', source: 'shop' },
        created_at: now,
        read: true,
      },
    ];
    renderAt('/member/notify');
    const text = 'Your shop withdrawal of 20 yuan was rejected and the money returned to your wallet: wrong name';
    await shows(text);
    await act(async () => {
      fireEvent.click(screen.getByText(text));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-tixian');
  });

  it('says whether a recharge arrived or failed, and opens the recharge records', async () => {
    const recharge = (id: string, data: Notice['data']): Notice => ({
      id,
      kind: 'recharge',
      actor: null,
      data,
      created_at: now,
      read: true,
    });
    notices = [
      recharge('r2', { amount: 50, status: 'success', reason: '' }),
      recharge('r1', { amount: 20, status: 'failed', reason: 'payment timed out' }),
      recharge('r0', { amount: 8, status: 'abnormal', reason: 'paid 0.01 yuan for a recharge of 8.00' }),
    ];
    renderAt('/member/notify');
    await shows('Your recharge of 50 yuan has arrived in your wallet');
    expect(
      screen.getByText(
        'The payment of your recharge of 8 yuan was abnormal and is being checked: paid 0.01 yuan for a recharge of 8.00',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Your recharge of 20 yuan failed: payment timed out')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('Your recharge of 20 yuan failed: payment timed out'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/member/recharge-records');
  });

  it('says whether the shop application was approved or rejected, and opens the shop or the application', async () => {
    const shop = (id: string, data: Notice['data']): Notice => ({
      id,
      kind: 'shop',
      actor: null,
      data,
      created_at: now,
      read: true,
    });
    notices = [
      shop('s2', { status: 'approved', reason: '', title: 'Tea Garden' }),
      shop('s1', { status: 'rejected', reason: 'blurred icon', title: 'Tea House' }),
    ];
    renderAt('/member/notify');
    await shows('Your shop “Tea Garden” is open');
    await act(async () => {
      fireEvent.click(screen.getByText('Your shop application “Tea House” was rejected: blurred icon'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/shop/user-add');
  });

  it("says what became of the seller's products, and opens My shop", async () => {
    const product = (id: string, data: Notice['data']): Notice => ({
      id,
      kind: 'product',
      actor: null,
      data,
      created_at: now,
      read: true,
    });
    notices = [
      product('p3', { product: 'a', status: 'banned', reason: 'counterfeit', title: 'Green tea' }),
      product('p2', { product: 'b', status: 'rejected', reason: 'blurred photos', title: 'Cups' }),
      product('p1', { product: 'a', status: 'on_sale', reason: '', title: 'Green tea' }),
    ];
    renderAt('/member/notify');
    await shows('Your product “Green tea” is on sale');
    expect(screen.getByText('Your product “Cups” was rejected: blurred photos')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('Your product “Green tea” was taken down for a violation: counterfeit'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-index');
  });

  it('tells the seller of orders paid and completed and the buyer of one shipped, opening the orders', async () => {
    const order = (id: string, data: Notice['data']): Notice => ({
      id,
      kind: 'order',
      actor: null,
      data,
      created_at: now,
      read: true,
    });
    notices = [
      order('o5', { order: 'a', status: 'settled', total: 22, title: 'Green tea' }),
      order('o4', { order: 'c', status: 'compensated', total: 3, title: 'Pot' }),
      order('o3', { order: 'a', status: 'completed', total: 25, title: 'Green tea' }),
      order('o2', { order: 'b', status: 'shipped', total: 12.5, title: 'Cups' }),
      order('o1', { order: 'a', status: 'paid', total: 25, title: 'Green tea' }),
    ];
    renderAt('/member/notify');
    await shows('New order to ship: “Green tea”, 25 yuan paid');
    expect(screen.getByText('The buyer received “Green tea”: 25 yuan arrives once its 7-day return ends')).toBeTruthy();
    expect(screen.getByText('The proceeds of “Green tea” arrived: 22 yuan is in your wallet')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('Your order “Cups” has been shipped'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/shop/user-order-view?id=b');
    // The buyer's compensation opens their order too.
    cleanup();
    renderAt('/member/notify');
    await act(async () => {
      fireEvent.click(
        await screen.findByText('“Pot” was not shipped within 48 hours: 3 yuan compensation is in your wallet'),
      );
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/shop/user-order-view?id=c');
  });

  it('tells the seller of refunds to decide and goods sent back, and the buyer of the rest, opening each', async () => {
    const refund = (id: string, status: Notice['data']['status']): Notice => ({
      id,
      kind: 'refund',
      actor: null,
      data: { order: `o${id}`, status, amount: 12.5, title: 'Green tea' },
      created_at: now,
      read: true,
    });
    notices = [
      refund('1', 'pending'),
      refund('2', 'returned'),
      refund('3', 'refused'),
      refund('4', 'returning'),
      refund('5', 'refunded'),
    ];
    const opens = [
      ['Refund requested for “Green tea”: 12.5 yuan', '/shop/business-drawback?id=o1'],
      ['The buyer sent back “Green tea”: receive it to refund', '/shop/business-drawback?id=o2'],
      ['Your refund for “Green tea” was refused', '/shop/user-order-view?id=o3'],
      ['The seller agreed to refund “Green tea”: send the goods back', '/shop/user-order-view?id=o4'],
      ['Your refund of 12.5 yuan for “Green tea” is in your wallet', '/shop/user-order-view?id=o5'],
    ] as const;
    for (const [text, target] of opens) {
      cleanup();
      renderAt('/member/notify');
      await shows(text);
      await act(async () => {
        fireEvent.click(screen.getByText(text));
        await Promise.resolve();
      });
      expect(screen.getByTestId('where').textContent).toBe(target);
    }
  });

  it('tells the seller of a review to answer and the buyer of the answer, opening the reviews', async () => {
    const review = (id: string, status: Notice['data']['status']): Notice => ({
      id,
      kind: 'review',
      actor: null,
      data: { order: `o${id}`, status, quality: 4, title: 'Green tea' },
      created_at: now,
      read: true,
    });
    notices = [review('1', 'reviewed'), review('2', 'replied')];
    const opens = [
      ['A buyer reviewed “Green tea”: quality 4 of 5', '/shop/business-ping'],
      ['The seller answered your review of “Green tea”', '/shop/user-ping'],
    ] as const;
    for (const [text, target] of opens) {
      cleanup();
      renderAt('/member/notify');
      await shows(text);
      await act(async () => {
        fireEvent.click(screen.getByText(text));
        await Promise.resolve();
      });
      expect(screen.getByTestId('where').textContent).toBe(target);
    }
  });

  it('says who signed up with the invitation and what it paid, and opens the invitations', async () => {
    const invitation = (id: string, coins: number): Notice => ({
      id,
      kind: 'invitation',
      actor: { id: `m${id}`, username: `Friend ${id}`, img: '' },
      data: { coins },
      created_at: now,
      read: true,
    });
    notices = [invitation('1', 100), invitation('2', 0)];
    renderAt('/member/notify');
    await shows('Friend 1 signed up with your invitation: +100 coins');
    expect(screen.getByText('Friend 2 signed up with your invitation')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('Friend 2 signed up with your invitation'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/renwu/yaoqing');
  });

  it('says what was decided on a report, and opens the report', async () => {
    const decided = (id: string, status: 'upheld' | 'dismissed'): Notice => ({
      id,
      kind: 'report',
      actor: null,
      data: { report: `r${id}`, status, reason: 'Checked', title: 'Buy cheap watches' },
      created_at: now,
      read: true,
    });
    notices = [decided('1', 'upheld'), decided('2', 'dismissed')];
    renderAt('/member/notify');
    await shows('Your report of “Buy cheap watches” was upheld and the content removed: Checked');
    expect(screen.getByText('Your report of “Buy cheap watches” was dismissed: Checked')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('Your report of “Buy cheap watches” was dismissed: Checked'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/article/jubao_view?id=r2');
  });

  it('says a report of a member upheld reset their profile; tells the member theirs was, and opens its editing', async () => {
    notices = [
      {
        id: '1',
        kind: 'report',
        actor: null,
        data: { report: 'r1', type: 'user', status: 'upheld', reason: 'Advertising', title: 'Cheap Watches' },
        created_at: now,
        read: true,
      },
      { id: '2', kind: 'profile_reset', actor: null, data: { reason: 'Advertising' }, created_at: now, read: true },
    ];
    renderAt('/member/notify');
    await shows('Your report of Cheap Watches was upheld and their profile reset: Advertising');
    const reset =
      'Your nickname, avatar, background and signature broke the rules and were reset: Advertising. You can set new ones now.';
    expect(screen.getByText(reset)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText(reset));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/member/sz-user');
  });

  it('tells an author which of their writings an upheld report removed and why, and opens their home', async () => {
    const removed = (id: string, type: 'article' | 'quanzi' | 'ping' | 'quanzi_ping', title: string): Notice => ({
      id,
      kind: 'content_removed',
      actor: null,
      data: { type, title, reason: 'Advertising' },
      created_at: now,
      read: true,
    });
    notices = [
      removed('1', 'article', 'Cheap watches'),
      removed('2', 'quanzi', 'Buy now'),
      removed('3', 'ping', 'Visit my shop'),
      removed('4', 'quanzi_ping', 'Call me'),
    ];
    renderAt('/member/notify');
    await shows('Your article “Cheap watches” broke the rules and was removed: Advertising');
    expect(screen.getByText('Your post “Buy now” broke the rules and was removed: Advertising')).toBeTruthy();
    expect(screen.getByText('Your comment “Visit my shop” broke the rules and was removed: Advertising')).toBeTruthy();
    const last = 'Your comment “Call me” broke the rules and was removed: Advertising';
    await act(async () => {
      fireEvent.click(screen.getByText(last));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe(`/user/home?id=${USER.id}`);
  });

  it('says who commented on or liked an article or a post, and opens the comments, the article or the likes', async () => {
    const bob = { id: '7', username: 'Bob', img: '' };
    const reaction = (id: string, kind: 'comment' | 'like', subject: 'article' | 'quanzi'): Notice => ({
      id,
      kind,
      actor: bob,
      data: {
        subject,
        id: subject === 'article' ? 'a1' : 'p1',
        title: subject === 'article' ? 'A day at the lake' : 'Spring at the lake',
        ...(kind === 'comment' && { comment: 'c1', content: 'Lovely' }),
      },
      created_at: now,
      read: true,
    });
    notices = [
      reaction('1', 'comment', 'article'),
      reaction('2', 'comment', 'quanzi'),
      reaction('3', 'like', 'article'),
      reaction('4', 'like', 'quanzi'),
    ];
    const opens = async (text: string) => {
      cleanup();
      renderAt('/member/notify');
      await shows(text);
      await act(async () => {
        fireEvent.click(screen.getByText(text));
        await Promise.resolve();
      });
      return screen.getByTestId('where').textContent;
    };
    expect(await opens('Bob commented on your article “A day at the lake”: Lovely')).toBe('/article/ping?id=a1');
    expect(await opens('Bob commented on your post “Spring at the lake”: Lovely')).toBe(
      '/article/ping?id=p1&type=quanzi',
    );
    expect(await opens('Bob liked your article “A day at the lake”')).toBe('/article/view?id=a1');
    expect(await opens('Bob liked your post “Spring at the lake”')).toBe('/article/ping-zan?id=p1&type=quanzi');
    notices = [
      { ...reaction('5', 'comment', 'quanzi'), data: { ...reaction('5', 'comment', 'quanzi').data, reply: true } },
    ];
    expect(await opens('Bob replied to your comment on “Spring at the lake”: Lovely')).toBe(
      '/article/ping?id=p1&type=quanzi',
    );
  });

  it('tells a seller of a new announcement, and opens it', async () => {
    notices = [
      {
        id: '1',
        kind: 'announcement',
        actor: null,
        data: { announcement: 'a7', title: 'Fees from May' },
        created_at: now,
        read: false,
      },
    ];
    renderAt('/member/notify');
    await shows('New announcement for sellers: “Fees from May”');
    await act(async () => {
      fireEvent.click(screen.getByText('New announcement for sellers: “Fees from May”'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-gonggao-view?id=a7');
  });
});

describe('member/sz-notify', () => {
  it('switches new followers off and on; system notifications stay on', async () => {
    renderAt('/member/sz-notify');
    await shows('New followers');
    const follow = screen.getByRole('switch', { name: 'New followers' });
    await vi.waitFor(() => expect(follow.getAttribute('aria-checked')).toBe('true'));
    const system = screen.getByRole('switch', { name: 'System notifications' });
    expect(system.getAttribute('aria-checked')).toBe('true');
    expect(system.getAttribute('aria-disabled')).toBe('true');
    await act(async () => {
      fireEvent.click(follow);
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(follow.getAttribute('aria-checked')).toBe('false'));
    expect(settingCalls.at(-1)).toMatchObject({ follow: false });
    await act(async () => {
      fireEvent.click(follow);
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(follow.getAttribute('aria-checked')).toBe('true'));
    expect(settings).toEqual({ follow: true, comment: true, like: true });
  });

  it('switches comments and likes each on its own', async () => {
    renderAt('/member/sz-notify');
    await shows('Comments');
    const comment = screen.getByRole('switch', { name: 'Comments' });
    const like = screen.getByRole('switch', { name: 'Likes' });
    await vi.waitFor(() => expect(like.getAttribute('aria-checked')).toBe('true'));
    await act(async () => {
      fireEvent.click(like);
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(like.getAttribute('aria-checked')).toBe('false'));
    expect(comment.getAttribute('aria-checked')).toBe('true');
    expect(settingCalls.at(-1)).toEqual(expect.objectContaining({ like: false }));
    expect(settingCalls.at(-1)).not.toHaveProperty('comment');
    await act(async () => {
      fireEvent.click(comment);
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(comment.getAttribute('aria-checked')).toBe('false'));
    expect(settings).toEqual({ follow: true, comment: false, like: false });
  });
});
