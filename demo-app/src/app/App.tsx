import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, ErrorBlock } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCNLocale from 'antd-mobile/es/locales/zh-CN';
import type { i18n } from 'i18next';
import type { Transport } from 'parley-im';
import { useState, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { HashRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { useAppConfig } from '../features/api/config';
import { useMemberSync } from '../features/member/useMemberSync';
import { ComingSoon } from '../pages/ComingSoon';
import { NavBar } from '../ui/NavBar';
import { CartProvider } from './cart';
import { PageFrame } from './lazy';
import { MessagingProvider, useMessaging } from './messaging';
import { HOME_PATH, LOGIN_PATH, TAB_PATHS, requiresLogin } from './navigation';
import { ROUTES } from './routes';
import { SessionProvider, useSession } from './session';
import { TabBar } from './TabBar';
import { ThemeProvider } from './theme';

/** A route that needs login sends a visitor to the login page, so a typed or shared URL obeys the rules too. */
function AuthGate({ path, children }: { path: string; children: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (!user && requiresLogin(`${path}${location.search}`)) {
    const redirect = `${location.pathname}${location.search}`;
    return <Navigate to={`${LOGIN_PATH}?${new URLSearchParams({ redirect }).toString()}`} replace />;
  }
  return <>{children}</>;
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <NavBar title={t('common.linkMissing')} />
      <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
    </div>
  );
}

/** The screens: routes, and the tab bar on tab pages. Mounted inside a router and {@link AppProviders}. */
export function Shell() {
  useMemberSync();
  const location = useLocation();
  const config = useAppConfig();
  const { user } = useSession();
  const { unreadTotal } = useMessaging();
  const onTab = TAB_PATHS.some((p) => location.pathname === `/${p}`);
  return (
    <div className={onTab ? 'app app-with-tabbar' : 'app'}>
      <Routes>
        <Route path="/" element={<Navigate to={HOME_PATH} replace />} />
        <Route path="/pages/index/index" element={<Navigate to={HOME_PATH} replace />} />
        {ROUTES.map(({ path, page }) => (
          <Route
            key={path}
            path={`/${path}`}
            element={<AuthGate path={path}>{page ? <PageFrame page={page} /> : <ComingSoon path={path} />}</AuthGate>}
          />
        ))}
        <Route path="*" element={<NotFound />} />
      </Routes>
      {onTab && (
        <TabBar
          appShow={config.data?.app_show ?? true}
          unreadMessages={unreadTotal}
          notifications={user?.member_notify_badge ?? 0}
        />
      )}
    </div>
  );
}

function Localised({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCNLocale}>{children}</ConfigProvider>;
}

/**
 * Everything a screen needs around it: i18n, theme, queries, session, cart, messaging. Tests mount screens in it, and may
 * give messaging an in-process `transport`.
 */
export function AppProviders({
  i18n,
  queryClient,
  transport,
  children,
}: {
  i18n: i18n;
  queryClient: QueryClient;
  transport?: Transport;
  children: ReactNode;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <Localised>
        <ThemeProvider>
          <QueryClientProvider client={queryClient}>
            <SessionProvider>
              <CartProvider>
                <MessagingProvider transport={transport}>{children}</MessagingProvider>
              </CartProvider>
            </SessionProvider>
          </QueryClientProvider>
        </ThemeProvider>
      </Localised>
    </I18nextProvider>
  );
}

/** The app: providers, hash routing, screens. */
export function App({ i18n }: { i18n: i18n }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } }),
  );
  return (
    <AppProviders i18n={i18n} queryClient={queryClient}>
      <HashRouter>
        <Shell />
      </HashRouter>
    </AppProviders>
  );
}
