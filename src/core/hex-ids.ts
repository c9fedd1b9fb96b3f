/**
 * Ids of 32 lowercase hexadecimal digits (those `timeOrderedHexId` makes, which every message sent from this
 * SDK carries) kept as four 32-bit words in a typed array instead of as strings. A client keeps hundreds of recent
 * ids for each conversation; as strings each is an object of 48 bytes for the collector to mark and move, as words
 * it is 16 bytes of a column the collector never looks into. Other ids are kept as they are by the callers.
 */

/** Words an id takes. */
export const HEX_ID_WORDS = 4;

const DIGITS = 32;

/** Each character code's digit value, or -1 for a character that is not a lowercase hexadecimal digit. */
const VALUES = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) VALUES[digit.toString(16).charCodeAt(0)] = digit;

/**
 * Writes `id`'s words into `words` at `at` when it is 32 lowercase hexadecimal digits; returns whether it was (the
 * words are then written; else some may have been).
 */
export function packHexId(id: string, words: Int32Array, at: number): boolean {
  if (id.length !== DIGITS) return false;
  for (let w = 0; w < HEX_ID_WORDS; w++) {
    let word = 0;
    for (let i = w * 8; i < w * 8 + 8; i++) {
      const code = id.charCodeAt(i);
      const value = code < 128 ? (VALUES[code] as number) : -1;
      if (value < 0) return false;
      word = (word << 4) | value;
    }
    words[at + w] = word;
  }
  return true;
}

/** Whether the words at `a` in `words` and at `b` in `other` are the same id. */
export function sameHexId(words: Int32Array, a: number, other: Int32Array, b: number): boolean {
  return (
    words[a] === other[b] &&
    words[a + 1] === other[b + 1] &&
    words[a + 2] === other[b + 2] &&
    words[a + 3] === other[b + 3]
  );
}

const CODES = Array.from({ length: 16 }, (_, digit) => digit.toString(16).charCodeAt(0));
const out: number[] = new Array<number>(DIGITS).fill(0);

/** The id whose words are at `at` in `words`, as the string it was packed from. */
export function unpackHexId(words: Int32Array, at: number): string {
  for (let w = 0; w < HEX_ID_WORDS; w++) {
    const word = words[at + w] as number;
    for (let i = 0; i < 8; i++) out[w * 8 + i] = CODES[(word >>> (28 - 4 * i)) & 15] as number;
  }
  // One flat string, not a rope of pieces.
  return String.fromCharCode(...out);
}
