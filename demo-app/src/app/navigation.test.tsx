// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { HOME_PATH, requiresLogin, resolveTarget } from './navigation';
import { ROUTES } from './routes';

describe('navigation rules (spec §2)', () => {
  it('opens the five tab pages as tab switches, and / or pages/index/index as home', () => {
    expect(resolveTarget('pages/video/index', false)).toEqual({ kind: 'tab', path: '/pages/video/index' });
    expect(resolveTarget('/pages/user/index', false)).toEqual({ kind: 'tab', path: '/pages/user/index' });
    expect(resolveTarget('/', false)).toEqual({ kind: 'tab', path: HOME_PATH });
    expect(resolveTarget('pages/index/index', false)).toEqual({ kind: 'tab', path: HOME_PATH });
  });

  it('sends a visitor to login for member, renwu and im paths, keeping where they wanted to go', () => {
    for (const target of ['member/notify', 'renwu/index', 'im/view?uid=7', '/im/index']) {
      const action = resolveTarget(target, false);
      expect(action.kind).toBe('login');
      if (action.kind === 'login') expect(action.path).toMatch(/^\/user\/login\?redirect=/);
    }
    expect(resolveTarget('im/view?uid=7', false)).toEqual({
      kind: 'login',
      path: `/user/login?redirect=${encodeURIComponent('/im/view?uid=7')}`,
    });
  });

  it('also protects cart, payment, live and a user home without an id', () => {
    for (const target of ['shop/cart', 'shop/payment', 'live/index', 'live/view?id=3', 'user/home']) {
      expect(requiresLogin(target)).toBe(true);
    }
    expect(requiresLogin('user/home?id=5')).toBe(false);
    expect(requiresLogin('shop/view?id=5')).toBe(false);
    // Confirming a sign-in by QR code: the phone must be signed in, and comes back with the ticket.
    expect(resolveTarget('user/scan-login?ticket=abc', false)).toEqual({
      kind: 'login',
      path: `/user/login?redirect=${encodeURIComponent('/user/scan-login?ticket=abc')}`,
    });
    for (const target of [
      'shop/user-add',
      'shop/business-index',
      'shop/business-list?x=1',
      'shop/success?code=c1',
      'shop/user-order?status=unpaid',
      'shop/user-order-view?id=o1',
      'shop/business-order',
      'shop/business-send?id=o1',
      'shop/user-drawback?id=o1',
      'shop/business-drawback?id=o1',
      'shop/user-claim?id=o1&kind=damage',
      'shop/business-order-view?id=o1',
      'shop/user-ping-add?id=o1',
      'shop/user-ping',
      'shop/shoucang',
      'shop/history',
      'shop/business-ping?status=all',
      'shop/business-gonggao',
      'shop/business-gonggao-view?id=a1',
    ]) {
      expect(requiresLogin(target)).toBe(true);
    }
    expect(requiresLogin('shop/shop?id=5')).toBe(false);
    // A product's reviews are open to visitors, as the product is.
    expect(requiresLogin('shop/view-ping?id=5')).toBe(false);
    expect(requiresLogin('article/view?id=1')).toBe(false);
  });

  it('protects every member page, settings and the language page included', () => {
    for (const target of ['member/language', 'member/sz', '/member/sz-user', 'member/sz?x=1']) {
      expect(requiresLogin(target)).toBe(true);
      expect(resolveTarget(target, false).kind).toBe('login');
    }
  });

  it('matches whole path segments, so that a page merely containing "im" is open', () => {
    expect(requiresLogin('public/tianqi')).toBe(false);
    expect(requiresLogin('search/list?q=im')).toBe(false);
  });

  it('opens protected pages directly for a signed-in user', () => {
    expect(resolveTarget('member/notify', true)).toEqual({ kind: 'page', path: '/member/notify' });
    expect(resolveTarget('im/view?uid=7', true)).toEqual({ kind: 'page', path: '/im/view?uid=7' });
  });

  it('opens full http(s) URLs in the web view', () => {
    const action = resolveTarget('https://example.com/a?b=1', false);
    expect(action.kind).toBe('webview');
    if (action.kind !== 'webview') return;
    const [path, query] = action.path.split('?');
    expect(path).toBe('/public/web-view');
    expect(new URLSearchParams(query).get('url')).toBe('https://example.com/a?b=1');
  });

  it('gives "link does not exist" for an empty target', () => {
    for (const target of ['', '   ', null, undefined]) expect(resolveTarget(target, true)).toEqual({ kind: 'missing' });
  });

  it('has the pages of buying, orders, refunds, guarantee claims, reviews, favourites, browsing history and announcements, not "coming soon"', () => {
    const built = (path: string) => ROUTES.find((route) => route.path === path)?.page;
    for (const path of [
      'cart',
      'payment',
      'success',
      'user-order',
      'user-order-view',
      'business-order',
      'business-send',
      'user-drawback',
      'business-drawback',
      'user-claim',
      'business-order-view',
      'user-ping-add',
      'view-ping',
      'user-ping',
      'business-ping',
      'shoucang',
      'history',
      'business-gonggao',
      'business-gonggao-view',
    ]) {
      expect(built(`shop/${path}`)).toBeDefined();
    }
  });

  it('has every page of spec §2 built: none is "coming soon"', () => {
    expect(ROUTES.filter((route) => route.page === undefined).map((route) => route.path)).toEqual([]);
  });

  it('has the short videos under both of their names, and the sign-in by QR code', () => {
    const page = (path: string) => ROUTES.find((route) => route.path === path)?.page;
    // svideo/nvideo is the native app's short-video page: in the browser, the same swiped feed.
    expect(page('svideo/nvideo')).toBeDefined();
    expect(page('user/scan-login')).toBeDefined();
  });
});
