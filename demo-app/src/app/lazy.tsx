import { Button, ErrorBlock } from 'antd-mobile';
import { Component, Suspense, lazy, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DelayedLoading } from '../ui/DelayedLoading';

/** A code chunk that has not arrived after this long counts as failed (spec §9: chunk load 120 s). */
export const CHUNK_TIMEOUT_MS = 120_000;

/** Page loading shows its indicator only after this delay (spec §2: 200 ms). */
export const PAGE_LOADING_DELAY_MS = 200;

/** A page still loading after this long shows the page-load failure instead of the indicator (spec §2: 60 s). */
export const PAGE_LOAD_TIMEOUT_MS = 60_000;

/** A page's code chunk did not arrive: missing, or not within {@link CHUNK_TIMEOUT_MS}. */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/** A page component loaded on demand, failing with a {@link ChunkLoadError} after {@link CHUNK_TIMEOUT_MS}. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ComponentType {
  return lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ChunkLoadError('chunk timeout')), CHUNK_TIMEOUT_MS);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(new ChunkLoadError('chunk missing', { cause: error }));
          },
        );
      }),
  );
}

/** The page-load failure: a message and a retry that loads the app again. */
function LoadFailed({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <ErrorBlock status="disconnected" title={title} description="">
      <Button color="primary" onClick={() => window.location.reload()}>
        {t('common.retry')}
      </Button>
    </ErrorBlock>
  );
}

/** While a page loads: nothing for 200 ms, then the indicator, and after 60 s the page-load failure. */
function PageLoading() {
  const { t } = useTranslation();
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), PAGE_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, []);
  return timedOut ? <LoadFailed title={t('common.pageTimeout')} /> : <DelayedLoading delayMs={PAGE_LOADING_DELAY_MS} />;
}

function PageFailed({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return <LoadFailed title={t(error instanceof ChunkLoadError ? 'common.chunkFailed' : 'common.unknownError')} />;
}

/**
 * Catches a page that failed: "failed to load chunk" when its chunk did not arrive, "unknown error" when the page
 * itself threw, so that one page's failure never blanks the app.
 */
class PageBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };
  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('page failed') };
  }
  override render() {
    return this.state.error === undefined ? this.props.children : <PageFailed error={this.state.error} />;
  }
}

/** Renders a lazy page with the delayed loading indicator, the page-load timeout and the chunk-failure message. */
export function PageFrame({ page: Page }: { page: ComponentType }) {
  return (
    <PageBoundary>
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    </PageBoundary>
  );
}
