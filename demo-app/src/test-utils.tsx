import { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from './app/App';
import { createI18n, type Language } from './i18n';

/** Renders `ui` inside the app's providers and a memory router at `path`, in `language`. */
export function renderApp(ui: ReactNode, { path = '/', language = 'en' }: { path?: string; language?: Language } = {}) {
  const i18n = createI18n(language);
  // No retries and no network: component tests never reach a server.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  const result: RenderResult = render(
    <AppProviders i18n={i18n} queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
  return { ...result, i18n, queryClient };
}
