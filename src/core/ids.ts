/** The character codes of each byte's two hex digits. */
const HEX_CODES = Array.from({ length: 256 }, (_, byte) => [
  ...byte
    .toString(16)
    .padStart(2, '0')
    .split('')
    .map((c) => c.charCodeAt(0)),
]);

/** The character code of each hex digit. */
const DIGIT_CODES = Array.from({ length: 16 }, (_, digit) => digit.toString(16).charCodeAt(0));

/** Random bytes drawn in blocks: one `getRandomValues` call costs microseconds, and every message needs an id. */
const pool = new Uint8Array(4096);
let used = pool.length;
const codes = new Array<number>(32);

/** Hex digits of the time at the front of {@link timeOrderedHexId}: 48 bits of milliseconds, as in a UUIDv7. */
const TIME_DIGITS = 12;

/** Writes `bytes` random bytes as hex into {@link codes} from `at` on. */
function fillRandom(at: number, bytes: number): void {
  if (used + bytes > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  for (let i = 0; i < bytes; i++) {
    const [high, low] = HEX_CODES[pool[used + i] as number] as number[];
    codes[at + 2 * i] = high as number;
    codes[at + 2 * i + 1] = low as number;
  }
  used += bytes;
}

/**
 * 32 hex characters (the reference's form for message ids and publish guids), the first 12 of them the time in
 * milliseconds (`now`), the other 20 random (80 bits), as a UUIDv7 is made. Ids made later sort later, so a
 * server's index of them grows at its end, where a batch of new ids shares a page or two, instead of writing a page
 * at a random place for each id. The SDK's message ids and publish guids are made here; the server accepts any id
 * and relies on no order.
 */
export function timeOrderedHexId(now: number = Date.now()): string {
  let time = Math.max(0, Math.floor(now));
  for (let i = TIME_DIGITS - 1; i >= 0; i--) {
    codes[i] = DIGIT_CODES[time % 16] as number;
    time = Math.floor(time / 16);
  }
  fillRandom(TIME_DIGITS, (32 - TIME_DIGITS) / 2);
  // One flat string, not a rope of pieces that every later hash or comparison would have to flatten.
  return String.fromCharCode(...codes);
}
