/** Mainland mobile number (spec §5): 11 digits, 1 then 2 to 9. */
export const MAINLAND_MOBILE = /^1[2-9]\d{9}$/;

/** A local number of another country: its digits, as E.164 allows at most 15 with the country code. */
const INTERNATIONAL = /^\d{4,14}$/;

/** Whether `phone` is a correct number for the country code `quhao` (without +): the server's rule. */
export function isPhoneNumber(phone: string, quhao: string): boolean {
  return quhao === '86' ? MAINLAND_MOBILE.test(phone) : INTERNATIONAL.test(phone);
}

/**
 * A contact number as typed: a mainland mobile number (`+86` before it allowed), or `+<country code> <number>`, the
 * code apart from the number since it has one to four digits. Dashes and spaces within the number are ignored.
 * Undefined when it is none of these.
 */
export function parseContactPhone(typed: string): { phone: string; quhao: string } | undefined {
  const text = typed.trim().replace(/-/g, ' ').replace(/\s+/g, ' ');
  const international = /^\+(\d{1,4}) (\d[\d ]*)$/.exec(text);
  const [quhao, phone] = international
    ? [international[1] ?? '', (international[2] ?? '').replace(/ /g, '')]
    : ['86', text.replace(/ /g, '').replace(/^\+86/, '')];
  return isPhoneNumber(phone, quhao) ? { phone, quhao } : undefined;
}
