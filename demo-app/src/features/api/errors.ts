import type { TFunction } from 'i18next';
import { ApiError } from './request';

/** The translated text of a failed call: the server's refusal by code, else "no network" or "unknown error". */
export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError) {
    if (error.code === 'network') return t('common.noNetwork');
    const key = `errors.${error.code}`;
    const text = t(key);
    return text === key ? error.message : text;
  }
  return t('common.unknownError');
}
