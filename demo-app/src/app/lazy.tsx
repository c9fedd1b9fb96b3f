import { Component, Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ErrorBlock } from 'antd-mobile';
import { DelayedLoading } from '../ui/DelayedLoading';

/** A code chunk that has not arrived after this long counts as failed (spec §9: chunk load 120 s). */
export const CHUNK_TIMEOUT_MS = 120_000;

/** Page loading shows its indicator only after this delay (spec §2: 200 ms). */
export const PAGE_LOADING_DELAY_MS = 200;

/** A page component loaded on demand, failing after {@link CHUNK_TIMEOUT_MS}. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ComponentType {
  return lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('chunk timeout')), CHUNK_TIMEOUT_MS);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }),
  );
}

function ChunkFailed() {
  const { t } = useTranslation();
  return (
    <ErrorBlock status="disconnected" title={t('common.chunkFailed')} description="">
      <Button color="primary" onClick={() => window.location.reload()}>
        {t('common.retry')}
      </Button>
    </ErrorBlock>
  );
}

/** Catches a page whose chunk failed to load and shows "failed to load chunk" with a retry. */
class ChunkBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ChunkFailed /> : this.props.children;
  }
}

/** Renders a lazy page with the delayed loading indicator and the chunk-failure message. */
export function PageFrame({ page: Page }: { page: ComponentType }) {
  return (
    <ChunkBoundary>
      <Suspense fallback={<DelayedLoading delayMs={PAGE_LOADING_DELAY_MS} />}>
        <Page />
      </Suspense>
    </ChunkBoundary>
  );
}
