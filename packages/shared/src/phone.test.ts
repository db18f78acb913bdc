import { describe, expect, it } from 'vitest';
import { normalizePhoneNumber, withNinthDigit } from './phone';

describe('withNinthDigit', () => {
  it('gives an 8-digit Brazilian mobile its ninth digit', () => {
    expect(withNinthDigit('551187654321')).toBe('5511987654321');
    expect(withNinthDigit('552196543210')).toBe('5521996543210');
    expect(withNinthDigit('554176543210')).toBe('5541976543210');
  });

  it('keeps a number that already has it, a landline and other countries', () => {
    // Never a second nine: the rule applied twice is the rule applied once.
    expect(withNinthDigit('5511987654321')).toBe('5511987654321');
    expect(withNinthDigit(withNinthDigit('551187654321'))).toBe('5511987654321');
    expect(withNinthDigit('551134567890')).toBe('551134567890');
    expect(withNinthDigit('553125678901')).toBe('553125678901');
    // Twelve digits starting 55 that are not Brazil's: the rule only reads 55 + 10 digits.
    expect(withNinthDigit('14155550123')).toBe('14155550123');
    expect(withNinthDigit('351912345678')).toBe('351912345678');
  });
});

describe('normalizePhoneNumber', () => {
  it('gives a Brazilian number its country code', () => {
    expect(normalizePhoneNumber('(11) 98765-4321')).toBe('5511987654321');
    expect(normalizePhoneNumber('11 3456-7890')).toBe('551134567890');
    expect(normalizePhoneNumber('011 98765 4321')).toBe('5511987654321');
    expect(normalizePhoneNumber('+55 (11) 98765-4321')).toBe('5511987654321');
  });

  it("adds Brazil's ninth digit to an old mobile number, written with or without 55", () => {
    expect(normalizePhoneNumber('+55 11 8765-4321')).toBe('5511987654321');
    expect(normalizePhoneNumber('55 21 9876 5432')).toBe('5521998765432');
    expect(normalizePhoneNumber('11 8765-4321')).toBe('5511987654321');
    expect(normalizePhoneNumber('551187654321')).toBe('5511987654321');
    // A landline (2 to 5 first) has no ninth digit.
    expect(normalizePhoneNumber('55 11 3456-7890')).toBe('551134567890');
    expect(normalizePhoneNumber('551132654321')).toBe('551132654321');
    expect(normalizePhoneNumber('5511987654321')).toBe('5511987654321');
  });

  it('reads the long-distance zero the same with or without the ninth digit', () => {
    expect(normalizePhoneNumber('0 11 8765-4321')).toBe('5511987654321');
    expect(normalizePhoneNumber('011987654321')).toBe('5511987654321');
  });

  it('keeps other countries as written', () => {
    expect(normalizePhoneNumber('+1 (415) 555-0123')).toBe('14155550123');
    expect(normalizePhoneNumber('+1 415 555 0100')).toBe('14155550100');
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
