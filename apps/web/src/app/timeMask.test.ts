import { describe, expect, it } from 'vitest';
import { maskTime } from './timeMask';

describe('maskTime', () => {
  it('puts the colon after the hours as digits come, keeping four at most', () => {
    expect(maskTime('')).toBe('');
    expect(maskTime('0')).toBe('0');
    expect(maskTime('08')).toBe('08');
    expect(maskTime('083')).toBe('08:3');
    expect(maskTime('0830')).toBe('08:30');
    expect(maskTime('08301')).toBe('08:30');
  });

  it('drops what is not a digit, the typed colon included', () => {
    expect(maskTime('08:30')).toBe('08:30');
    expect(maskTime('8h30')).toBe('83:0');
    expect(maskTime('ab')).toBe('');
    expect(maskTime('08:')).toBe('08');
  });
});
