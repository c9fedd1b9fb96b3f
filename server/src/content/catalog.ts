/**
 * What the operator's change of an item of a catalog (article channels, circle topics) came to: the item, or why
 * not, in the words of the operator API (`not_found` for an unknown item, `bad_request` for a refused change).
 */
export type CatalogEditResult<T> =
  { ok: true; value: T } | { ok: false; failure: 'bad_request' | 'not_found'; message: string };

/** A refused change, in the operator API's words. */
export const badRequest = (message: string) => ({ ok: false, failure: 'bad_request', message }) as const;
