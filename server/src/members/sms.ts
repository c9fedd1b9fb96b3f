import type { Logger } from '../logger.js';

/** Sends verification codes by SMS. A production deployment plugs its SMS vendor in here. */
export interface SmsProvider {
  /** Delivers `code` to `phone`; rejects when the vendor refuses. */
  send(params: { phone: string; code: string }): Promise<void>;
}

/** The development provider: nothing leaves the machine, the code goes to the server log. */
export interface DevSmsProvider extends SmsProvider {
  /** The last code sent to `phone`, for tests and local use. */
  lastCode(phone: string): string | undefined;
}

/**
 * Logs each code at info level so that a developer can sign in without an SMS vendor, and remembers the last code
 * per phone so that tests read it without parsing logs.
 */
export function createDevSmsProvider(logger: Logger): DevSmsProvider {
  const last = new Map<string, string>();
  return {
    send({ phone, code }) {
      last.set(phone, code);
      logger.info({ phone, code }, 'sms code (development provider, not sent)');
      return Promise.resolve();
    },
    lastCode: (phone) => last.get(phone),
  };
}
