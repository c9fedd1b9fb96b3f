/**
 * What a member wrote, as stored: trimmed, line ends as `\n`, 1 to `max` characters (Unicode code points), and no
 * control characters but new lines (and tabs, with `tabs`). Undefined when it is not a string, is blank, too long, or
 * holds another control character.
 */
export function writtenText(
  value: unknown,
  max: number,
  { tabs = false }: { tabs?: boolean } = {},
): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\r\n?/g, '\n').trim();
  const length = [...text].length;
  // eslint-disable-next-line no-control-regex
  const control = tabs ? /[\u0000-\u0008\u000b-\u001f\u007f]/ : /[\u0000-\u0009\u000b-\u001f\u007f]/;
  return length === 0 || length > max || control.test(text) ? undefined : text;
}

/** A title as checked: trimmed, or why it is refused. */
export type WrittenTitle = { ok: true; title: string } | { ok: false; problem: 'short' | 'long' };

/**
 * A title as stored (spec §5, §9 "Post title 5 to 30 characters"): trimmed, `min` to `max` characters (Unicode code
 * points) on one line without control characters. Not a string, shorter, or holding a control character (a new line
 * among them) is `short`; longer is `long`.
 */
export function writtenTitle(value: unknown, { min, max }: { min: number; max: number }): WrittenTitle {
  if (typeof value !== 'string') return { ok: false, problem: 'short' };
  const title = value.trim();
  const length = [...title].length;
  if (length < min || /\p{Cc}/u.test(title)) return { ok: false, problem: 'short' };
  if (length > max) return { ok: false, problem: 'long' };
  return { ok: true, title };
}

/**
 * The start of `text` on one line: each run of white space one space, cut to at most `max` characters, "…" ending
 * what was cut.
 */
export function lineStart(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : chars.join('');
}

/** Whether `value` is an http(s) URL of at most `max` characters, without spaces: a picture or a link the operator gives. */
export function isHttpUrl(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max && /^https?:\/\/[^\s/]+\S*$/i.test(value);
}
