import { signupSchema } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { maskPhone } from './phoneMask';

describe('maskPhone: (99) 99999-9999', () => {
  it('formats as the digits arrive', () => {
    expect(maskPhone('')).toBe('');
    expect(maskPhone('1')).toBe('(1');
    expect(maskPhone('11')).toBe('(11');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('1198765')).toBe('(11) 98765');
    expect(maskPhone('11987654')).toBe('(11) 98765-4');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
  });

  it('keeps at most 11 digits and drops everything else', () => {
    expect(maskPhone('11987654321999')).toBe('(11) 98765-4321');
    expect(maskPhone('+55 (11) 9.8765-4321')).toBe('(55) 11987-6543');
    expect(maskPhone('abc')).toBe('');
  });

  it('is stable when re-applied to its own output (typing after the mask)', () => {
    const masked = maskPhone('1198765');
    expect(maskPhone(`${masked}4`)).toBe('(11) 98765-4');
    // deleting the last digit after the dash removes the dash too
    expect(maskPhone('(11) 98765-')).toBe('(11) 98765');
  });

  it('gives the sign-up schema the digits it expects', () => {
    const parsed = signupSchema.shape.phone.parse(maskPhone('11987654321'));
    expect(parsed).toBe('11987654321');
    expect(signupSchema.shape.phone.safeParse(maskPhone('119876')).success).toBe(false);
  });
});
