import type { ComponentType } from 'react';
import { lazyPage } from './lazy';
import { TAB_PATHS } from './navigation';

/** Pages that exist, by route path (no leading slash); each loads as its own chunk. */
const BUILT: Record<string, () => Promise<{ default: ComponentType }>> = {
  'pages/article/index': () => import('../pages/article/index'),
  'pages/video/index': () => import('../pages/video/index'),
  'pages/shop/index': () => import('../pages/shop/index'),
  'pages/quanzi/index': () => import('../pages/quanzi/index'),
  'pages/user/index': () => import('../pages/user/index'),
  'user/login': () => import('../pages/user/login'),
  'user/quhao': () => import('../pages/user/quhao'),
  'user/home': () => import('../pages/user/home'),
  'user/user_list': () => import('../pages/user/user_list'),
  'member/language': () => import('../pages/member/language'),
  'member/sz': () => import('../pages/member/sz'),
  'member/sz-user': () => import('../pages/member/sz-user'),
  'member/sz-nickname': () => import('../pages/member/sz-nickname'),
  'member/sz-qianming': () => import('../pages/member/sz-qianming'),
  'member/feedback': () => import('../pages/member/feedback'),
  'member/feedback-list': () => import('../pages/member/feedback-list'),
  'member/out': () => import('../pages/member/out'),
  'member/lahei': () => import('../pages/member/lahei'),
  'member/guanzhu': () => import('../pages/member/guanzhu'),
  'member/renzheng': () => import('../pages/member/renzheng'),
  'member/notify': () => import('../pages/member/notify'),
  'member/sz-notify': () => import('../pages/member/sz-notify'),
  'member/address': () => import('../pages/member/address'),
  'member/address-add': () => import('../pages/member/address-add'),
  'member/money': () => import('../pages/member/money'),
  'member/recharge': () => import('../pages/member/recharge'),
  'member/money-records': () => import('../pages/member/money-records'),
  'member/recharge-records': () => import('../pages/member/recharge-records'),
  'shop/user-add': () => import('../pages/shop/user-add'),
  'shop/business-index': () => import('../pages/shop/business-index'),
  'shop/business-add': () => import('../pages/shop/business-add'),
  'shop/business-list': () => import('../pages/shop/business-list'),
  'shop/view': () => import('../pages/shop/view'),
  'renwu/index': () => import('../pages/renwu/index'),
  'renwu/jinbi': () => import('../pages/renwu/jinbi'),
  'renwu/tixian': () => import('../pages/renwu/tixian'),
  'renwu/tixian_band': () => import('../pages/renwu/tixian_band'),
  'renwu/tixian_list': () => import('../pages/renwu/tixian_list'),
  'renwu/yaoqing': () => import('../pages/renwu/yaoqing'),
  'article/view': () => import('../pages/article/view'),
  'article/ping': () => import('../pages/article/ping'),
  'article/ping-zan': () => import('../pages/article/ping-zan'),
  'article/jubao_view': () => import('../pages/article/jubao_view'),
  'article/typeid': () => import('../pages/article/typeid'),
  'member/add-article': () => import('../pages/member/add-article'),
  'member/record': () => import('../pages/member/record'),
  'member/add-quanzi': () => import('../pages/member/add-quanzi'),
  'topic/index': () => import('../pages/topic/index'),
  'topic/list': () => import('../pages/topic/list'),
  'search/index': () => import('../pages/search/index'),
  'search/list': () => import('../pages/search/list'),
  'im/index': () => import('../pages/im/index'),
  'im/view': () => import('../pages/im/view'),
  'im/console': () => import('../pages/im/console'),
  'public/web-view': () => import('../pages/public/web-view'),
  'public/agreement': () => import('../pages/public/agreement'),
  'public/privacy': () => import('../pages/public/privacy'),
  'public/cancellation': () => import('../pages/public/cancellation'),
};

/** Every sub-package page of spec §2, by package. Those not in {@link BUILT} show "coming soon". */
const SUB_PACKAGES: Record<string, readonly string[]> = {
  article: ['view', 'page', 'typeid', 'ping', 'jubao_view', 'ping-zan', 'find'],
  video: ['view'],
  svideo: ['index', 'nvideo'],
  live: ['index', 'view', 'a1', 'a2', 'shop-add'],
  // agreement and privacy: the user agreement and privacy policy that login asks to accept (spec §5), in the app;
  // cancellation: the agreement account cancellation asks to accept (spec §5).
  public: ['web-view', 'tianqi', 'city', 'openvideo', 'vote', 'agreement', 'privacy', 'cancellation'],
  renwu: ['index', 'tixian_band', 'jinbi', 'yaoqing', 'tixian', 'tixian_list'],
  search: ['index', 'list'],
  topic: ['index', 'list'],
  user: ['user_list', 'login', 'quhao', 'home', 'scan-login'],
  member: [
    'sz',
    'sz-user',
    'sz-nickname',
    'sz-qianming',
    'add-article',
    'add-quanzi',
    'add-video',
    'record',
    'guanzhu',
    'renzheng',
    'feedback',
    'feedback-list',
    'lahei',
    'notify',
    'sz-notify',
    'out',
    'language',
    'address',
    'address-add',
    'money',
    'recharge',
    'money-records',
    'recharge-records',
  ],
  shop: [
    'user-add',
    'business-index',
    'business-add',
    'business-list',
    'view',
    'cart',
    'payment',
    'success',
    'user-order',
    'user-order-view',
    'user-drawback',
    'business-order',
    'business-send',
    'user-ping-add',
    'view-ping',
    'shop',
    'business-tixian',
    'history',
    'shoucang',
    'user-ping',
    'business-gonggao',
    'business-gonggao-view',
    'business-ping',
  ],
  // console: the customer-service agent console (spec §1 and §6), a page of this app beyond the reference's list.
  im: ['view', 'index', 'console'],
  other: ['choose-location', 'open-location', 'avatar-cropper'],
};

/** One route: its path, and the page, or none for a "coming soon" page. */
export interface RouteEntry {
  path: string;
  page: ComponentType | undefined;
}

/** The route table: the tab pages, then every sub-package page. */
export const ROUTES: readonly RouteEntry[] = [
  ...TAB_PATHS,
  ...Object.entries(SUB_PACKAGES).flatMap(([root, pages]) => pages.map((page) => `${root}/${page}`)),
].map((path) => {
  const load = BUILT[path];
  return { path, page: load ? lazyPage(load) : undefined };
});
