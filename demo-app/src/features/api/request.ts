import { Toast } from 'antd-mobile';
import { maskStyle } from '../../ui/toast';

/** Base of the product API: the site host followed by `index.php/api/` (spec §7). */
export const API_BASE = '/index.php/api/';

/** Requests give up after 10 s (spec §7, helper layer). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** The loading indicator appears only when a call takes longer than this (spec §9). */
export const LOADING_DELAY_MS = 800;

/** A refusal by the server (`{err, code}`) or a failure to reach it (`code` 'network'). */
export class ApiError extends Error {
  readonly code: string;
  /** Whether the server answered with `err` (a refusal), rather than the call failing on the way. */
  readonly refused: boolean;
  constructor(code: string, message: string, { refused = false }: { refused?: boolean } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.refused = refused;
  }
}

/** Whether `error` is the server's `err` answer to a call. */
export function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.refused;
}

/** What every call carries besides its own fields (spec §7). */
export interface CallContext {
  token?: string | undefined;
  locale: string;
}

/** Device and app facts sent as `app` with each call. */
function appInfo() {
  return { platform: 'h5', version: '1.0.0', versionCode: 108, width: window.innerWidth, height: window.innerHeight };
}

/**
 * POSTs `data` to the product API with `app`, `i18n` and the token, and resolves with the whole answer; an answer
 * with `err` rejects with an {@link ApiError} carrying the server's `code`. A call that has no answer after
 * {@link REQUEST_TIMEOUT_MS}, or whose answer is not JSON, rejects with code `network`. With `loading`, a loading
 * toast shows once the call has taken {@link LOADING_DELAY_MS}.
 */
export async function apiPost<T extends { ret: unknown }>(
  path: string,
  data: Record<string, unknown>,
  context: CallContext,
  options: { loading?: boolean } = {},
): Promise<T> {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  const loading = options.loading
    ? setTimeout(() => Toast.show({ icon: 'loading', duration: 0, maskStyle }), LOADING_DELAY_MS)
    : undefined;
  try {
    const body = {
      ...data,
      app: appInfo(),
      i18n: { locale: context.locale, osLanguage: navigator.language, appLanguage: context.locale },
      ...(context.token ? { token: context.token } : {}),
    };
    let answer: { err?: unknown; code?: unknown } & Partial<T>;
    try {
      const response = await fetch(`${API_BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      // Only status 200 counts as an answer (spec §7).
      if (response.status !== 200) throw new ApiError('network', `HTTP ${response.status}`);
      // The timeout covers the body too: a stalled or garbled body is no answer either.
      const parsed: unknown = await response.json();
      if (typeof parsed !== 'object' || parsed === null) throw new ApiError('network', 'not an answer object');
      answer = parsed;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError('network', controller.signal.aborted ? 'timeout' : 'no network, please retry');
    }
    if (answer.err !== undefined) {
      throw new ApiError(
        typeof answer.code === 'string' ? answer.code : 'unknown',
        typeof answer.err === 'string' ? answer.err : JSON.stringify(answer.err),
        { refused: true },
      );
    }
    return answer as T;
  } finally {
    clearTimeout(timeout);
    if (loading !== undefined) {
      clearTimeout(loading);
      Toast.clear();
    }
  }
}
