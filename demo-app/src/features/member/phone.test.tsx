import { describe, expect, it } from 'vitest';
import { isPhoneNumber, parseContactPhone } from './phone';

describe('phone numbers', () => {
  it('takes mainland mobile numbers: 11 digits, 1 then 2 to 9 (spec §5)', () => {
    expect(isPhoneNumber('13800138000', '86')).toBe(true);
    expect(isPhoneNumber('12000000000', '86')).toBe(true);
    for (const phone of ['11800138000', '1380013800', '138001380001', '2380013800a', '']) {
      expect(isPhoneNumber(phone, '86'), phone).toBe(false);
    }
    expect(isPhoneNumber('2025550143', '1')).toBe(true);
    expect(isPhoneNumber('123', '1')).toBe(false);
  });

  it('reads a contact number as typed: mainland, +86 before it, or +code apart from the number', () => {
    expect(parseContactPhone(' 138 0013-8000 ')).toEqual({ phone: '13800138000', quhao: '86' });
    expect(parseContactPhone('+8613800138000')).toEqual({ phone: '13800138000', quhao: '86' });
    expect(parseContactPhone('+86 138 0013 8000')).toEqual({ phone: '13800138000', quhao: '86' });
    expect(parseContactPhone('+1 202-555-0143')).toEqual({ phone: '2025550143', quhao: '1' });
    expect(parseContactPhone('+44  7700 900123')).toEqual({ phone: '7700900123', quhao: '44' });
    // Without the space the code's length is unknown; a number without + is a mainland one.
    for (const typed of ['+12025550143', '2025550143', '+1 20', '+12345 678901', 'phone', '']) {
      expect(parseContactPhone(typed), typed).toBeUndefined();
    }
  });
});
