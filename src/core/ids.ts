/** The character codes of each byte's two hex digits. */
const HEX_CODES = Array.from({ length: 256 }, (_, byte) => [
  ...byte
    .toString(16)
    .padStart(2, '0')
    .split('')
    .map((c) => c.charCodeAt(0)),
]);

/** Random bytes drawn in blocks: one `getRandomValues` call costs microseconds, and every message needs an id. */
const pool = new Uint8Array(4096);
let used = pool.length;
const codes = new Array<number>(32);

/** 32 random hex characters: the reference's form for message ids and publish guids. */
export function randomHexId(): string {
  if (used + 16 > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  for (let i = 0; i < 16; i++) {
    const [high, low] = HEX_CODES[pool[used + i] as number] as number[];
    codes[2 * i] = high as number;
    codes[2 * i + 1] = low as number;
  }
  used += 16;
  // One flat string, not a rope of 16 pieces that every later hash or comparison would have to flatten.
  return String.fromCharCode(...codes);
}
