import { describe, expect, it } from 'vitest';
import { normalizePhoneNumber } from './contact-lists.numbers';

describe('normalizePhoneNumber', () => {
  it('gives a Brazilian number its country code', () => {
    expect(normalizePhoneNumber('(11) 98765-4321')).toBe('5511987654321');
    expect(normalizePhoneNumber('11 3456-7890')).toBe('551134567890');
    expect(normalizePhoneNumber('011 98765 4321')).toBe('5511987654321');
  });

  it("adds Brazil's ninth digit to an old mobile number", () => {
    expect(normalizePhoneNumber('+55 11 8765-4321')).toBe('5511987654321');
    expect(normalizePhoneNumber('55 21 9876 5432')).toBe('5521998765432');
    // A landline (2 to 5 first) has no ninth digit.
    expect(normalizePhoneNumber('55 11 3456-7890')).toBe('551134567890');
    expect(normalizePhoneNumber('5511987654321')).toBe('5511987654321');
  });

  it('keeps other countries as written', () => {
    expect(normalizePhoneNumber('+1 (415) 555-0123')).toBe('14155550123');
    expect(normalizePhoneNumber('00 351 912 345 678')).toBe('351912345678');
    expect(normalizePhoneNumber('+44 20 7946 0958')).toBe('442079460958');
  });

  it('refuses what cannot be a number', () => {
    for (const text of ['', 'abc', '1234567', '12345678901234567', 'tel: 11 98765-4321']) {
      expect(normalizePhoneNumber(text), text).toBeUndefined();
    }
    // 55 with a bad area code or length is not a Brazilian number.
    expect(normalizePhoneNumber('+55 01 98765-4321')).toBeUndefined();
  });
});
