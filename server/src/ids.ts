import { ServiceError } from './errors.js';
import { CODES } from './protocol.js';

/** Longest user or group id the IM and presence services accept; the store's id columns are sized for it. */
export const MAX_ID_LENGTH = 128;

/** Refuses ids the store cannot hold, with the wire's parameter-error wording (400). */
export function assertIds(ids: readonly string[]): void {
  for (const id of ids) {
    if (id.length > MAX_ID_LENGTH) {
      throw new ServiceError(CODES.BAD_REQUEST, `parameter error (id over max length ${MAX_ID_LENGTH})`);
    }
  }
}
