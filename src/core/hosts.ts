import { LIMITS, MESSAGES } from '../protocol/index.js';
import { ParleyError } from './errors.js';

/**
 * The hosts a client connects to, tried from a random start and moved to the next after every connection
 * error (the reference's numbered hosts, generalised to a list of URLs).
 */
export class HostRotation {
  readonly #urls: readonly string[];
  #index: number;

  constructor(urls: readonly string[], random: () => number) {
    this.#urls = urls;
    this.#index = Math.floor(random() * urls.length) % urls.length;
  }

  /** The URL to try now. */
  current(): string {
    return this.#urls[this.#index] as string;
  }

  /** Moves to the next host, wrapping around, and returns it. */
  next(): string {
    this.#index = (this.#index + 1) % this.#urls.length;
    return this.current();
  }

  /** All hosts, in order. */
  all(): readonly string[] {
    return this.#urls;
  }
}

/**
 * Turns `host` or `hosts` into one to five URLs. A host without a scheme gets `https://` when `forceTLS` is
 * set or the page itself is on https, `http://` otherwise; `ws(s)://` becomes `http(s)://` for socket.io.
 */
export function normaliseHosts(hosts: readonly string[], forceTLS: boolean): string[] {
  const cleaned = hosts.map((h) => (typeof h === 'string' ? h.trim() : '')).filter((h) => h.length > 0);
  if (cleaned.length === 0) throw ParleyError.badRequest('hostEmpty');
  if (cleaned.length > LIMITS.maxHosts) throw new ParleyError(400, MESSAGES.tooManyHosts);
  const pageIsTls = (globalThis as { location?: { protocol?: string } }).location?.protocol === 'https:';
  return cleaned.map((host) => {
    const match = /^(wss?|https?):\/\//i.exec(host);
    if (!match) return `${forceTLS || pageIsTls ? 'https' : 'http'}://${host}`;
    const scheme = (match[1] as string).toLowerCase();
    const rest = host.slice(match[0].length);
    const secure = forceTLS || scheme === 'https' || scheme === 'wss';
    return `${secure ? 'https' : 'http'}://${rest}`;
  });
}
