import { toast } from '../ui/toast';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from './session';

/** The five tab pages, in tab order (spec §2). */
export const TAB_PATHS = [
  'pages/article/index',
  'pages/video/index',
  'pages/shop/index',
  'pages/quanzi/index',
  'pages/user/index',
] as const;

/** Where "home" is: the first tab. */
export const HOME_PATH = `/${TAB_PATHS[0]}`;

/** The login page. */
export const LOGIN_PATH = '/user/login';

/**
 * Path segments that make any target need login (spec §2), with no exception: a visitor switches the language on
 * the login page or the user tab instead of member/language. Matched as whole segments, not substrings.
 */
const LOGIN_SEGMENTS = new Set(['member', 'renwu', 'im']);

/**
 * Shop pages of a member's own (spec §2 "Cart, payment ... also require login"): the cart and paying, their orders,
 * refunds, guarantee claims, reviews to write and reviews written, their favourites and browsing history, and the shop
 * application; the business area (shop/business-*) besides. A product's reviews (shop/view-ping) are open to visitors.
 */
const MEMBER_SHOP_PAGES = new Set([
  'shop/cart',
  'shop/payment',
  'shop/success',
  'shop/user-order',
  'shop/user-order-view',
  'shop/user-drawback',
  'shop/user-claim',
  'shop/user-ping-add',
  'shop/user-ping',
  'shop/shoucang',
  'shop/history',
  'shop/user-add',
]);

/** What opening a target does. */
export type NavigationAction =
  | { kind: 'tab'; path: string }
  | { kind: 'page'; path: string }
  | { kind: 'login'; path: string }
  | { kind: 'webview'; path: string }
  | { kind: 'missing' };

/** Splits a target into its path without leading or trailing slashes and its query. */
function parse(target: string): { path: string; query: URLSearchParams } {
  const [rawPath = '', rawQuery = ''] = target.trim().replace(/^#/, '').split('?', 2);
  return { path: rawPath.replace(/^\/+|\/+$/g, ''), query: new URLSearchParams(rawQuery) };
}

/**
 * Whether opening `target` needs a signed-in user (spec §2 navigation rules, with the rest of paying, and a member's
 * own shop pages: their orders, the shop application and the business area; confirming a sign-in by QR code; and the
 * avatar cropper).
 */
export function requiresLogin(target: string): boolean {
  const { path, query } = parse(target);
  const segments = path.split('/');
  if (segments.some((s) => LOGIN_SEGMENTS.has(s))) return true;
  if (segments[0] === 'live') return true;
  // Confirming a sign-in by QR code signs another device in to the member's own account.
  if (path === 'user/scan-login') return true;
  // The avatar cropper saves the member's own avatar.
  if (path === 'other/avatar-cropper') return true;
  if (MEMBER_SHOP_PAGES.has(path) || path.startsWith('shop/business-')) return true;
  return path === 'user/home' && !query.get('id');
}

/** Decides what opening `target` does, without doing it, so that the rules are testable on their own. */
export function resolveTarget(target: string | null | undefined, loggedIn: boolean): NavigationAction {
  if (target === null || target === undefined || target.trim() === '') return { kind: 'missing' };
  const trimmed = target.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    return { kind: 'webview', path: `/public/web-view?${new URLSearchParams({ url: trimmed, title: '' }).toString()}` };
  }
  const { path, query } = parse(trimmed);
  if (path === '' || path === 'pages/index/index') return { kind: 'tab', path: HOME_PATH };
  if ((TAB_PATHS as readonly string[]).includes(path)) return { kind: 'tab', path: `/${path}` };
  const search = query.toString();
  const full = `/${path}${search ? `?${search}` : ''}`;
  if (!loggedIn && requiresLogin(trimmed)) {
    return { kind: 'login', path: `${LOGIN_PATH}?${new URLSearchParams({ redirect: full }).toString()}` };
  }
  return { kind: 'page', path: full };
}

/** Opens targets by the navigation rules: tab switch, page, login prompt, web view, or "link does not exist". */
export function useNavigateTo(): (target: string | null | undefined) => void {
  const navigate = useNavigate();
  const { user } = useSession();
  const { t } = useTranslation();
  return useCallback(
    (target) => {
      const action = resolveTarget(target, user !== null);
      switch (action.kind) {
        case 'missing':
          toast(t('common.linkMissing'));
          return;
        case 'login':
          toast(t('common.pleaseSignIn'));
          void navigate(action.path);
          return;
        case 'tab':
          // Tab switches replace, so that back from a tab leaves the tab bar rather than walking tab history.
          void navigate(action.path, { replace: true });
          return;
        case 'page':
        case 'webview':
          void navigate(action.path);
          return;
      }
    },
    [navigate, user, t],
  );
}

/** Closes the current page: back, or home when it is the only page in history (spec §2). */
export function useClosePage(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    // React Router numbers its history entries; index 0 is the page the app was opened on.
    const state = window.history.state as { idx?: number } | null;
    if (state && typeof state.idx === 'number' && state.idx > 0) void navigate(-1);
    else void navigate(HOME_PATH, { replace: true });
  }, [navigate]);
}
