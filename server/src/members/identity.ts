/**
 * The checks of real-name certification (spec §5 "Chinese ID card", §2 member/renzheng): a resident identity card
 * number (GB 11643) and an organisation's unified social credit code (GB 32100), each with its check character.
 */

import { lineOf } from './addresses.js';

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECKS = '10X98765432';

/**
 * Whether `value` is a resident identity card number: 17 digits and a check character (a digit or X, in either
 * case), with a birth date from 1900-01-01 to `today` (`YYYY-MM-DD`) in digits 7 to 14.
 */
export function isIdCardNumber(value: string, today: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(value)) return false;
  const birth = `${value.slice(6, 10)}-${value.slice(10, 12)}-${value.slice(12, 14)}`;
  const date = new Date(`${birth}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== birth) return false;
  if (birth < '1900-01-01' || birth > today) return false;
  const sum = ID_WEIGHTS.reduce((total, weight, i) => total + weight * Number(value[i]), 0);
  return ID_CHECKS[sum % 11] === value[17]?.toUpperCase();
}

const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CODE_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** Whether `value` is a unified social credit code: 18 characters of GB 32100's set, the last its check character. */
export function isCreditCode(value: string): boolean {
  const code = value.toUpperCase();
  if (!/^[0-9A-HJ-NP-RTUW-Y]{18}$/.test(code)) return false;
  const sum = CODE_WEIGHTS.reduce((total, weight, i) => total + weight * CODE_CHARS.indexOf(code[i] ?? ''), 0);
  return CODE_CHARS[(31 - (sum % 31)) % 31] === code[17];
}

/** An identity number as shown back: its first and last characters, the rest starred. */
export function maskNumber(value: string): string {
  return value.length <= 4
    ? '*'.repeat(value.length)
    : `${value.slice(0, 1)}${'*'.repeat(value.length - 2)}${value.slice(-1)}`;
}

/** A person's real name as stored: 2 to `max` characters after trimming, no digits or control characters. */
export function personNameOf(value: unknown, max: number): string | undefined {
  const named = lineOf(value, max);
  return named === undefined || [...named].length < 2 || /\d/.test(named) ? undefined : named;
}
