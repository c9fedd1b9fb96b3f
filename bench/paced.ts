/**
 * The send loop of an `im-chat` step (bench/im-chat-clients.ts): sends at `rate` per second on one clock, first for
 * `leadMs` unmeasured, then for `ms` measured, without a pause or a burst between the two.
 */
export interface PacedOptions {
  /** Messages per second. */
  rate: number;
  /** How long to send before measuring, ms; 0 measures from the start. */
  leadMs: number;
  /** How long to send measured, ms. */
  ms: number;
  /** How long to wait between rounds of sends, ms. */
  tickMs: number;
  /** The clock, ms. */
  now(): number;
  /** Waits `ms`. */
  sleep(ms: number): Promise<void>;
  /** Sends one message. */
  send(): void;
  /** Called once, right before the first measured send: the caller starts its figures over. */
  measure(): void;
}

/** Runs the loop; resolves with the number of messages sent in the measured part. */
export async function sendPaced(options: PacedOptions): Promise<number> {
  const { rate, leadMs, ms, tickMs, now, sleep, send, measure } = options;
  const start = now();
  let sent = 0;
  let measuredFrom: number | undefined;
  for (;;) {
    const elapsed = now() - start;
    if (measuredFrom === undefined && elapsed >= leadMs) {
      measure();
      measuredFrom = sent;
    }
    if (elapsed >= leadMs + ms) break;
    const due = Math.floor((elapsed / 1000) * rate);
    for (; sent < due; sent++) send();
    await sleep(tickMs);
  }
  return sent - (measuredFrom ?? 0);
}
