/**
 * A key's text as a setting holds it: trimmed, and `\n` written out (an environment variable holding PEM on one
 * line) taken as newlines.
 */
export function keyText(text: string): string {
  return text.trim().replace(/\\n/g, '\n');
}
