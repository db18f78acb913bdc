import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { noneIfEmpty, optionalRef, optionalWholeNumber, unsetIfEmpty } from './tolerant';

const body = z.object({
  ref: optionalRef,
  order: optionalWholeNumber(0, 100),
});

describe('the tolerant readers', () => {
  it("read the original client's empty values as none and its typed numbers as numbers", () => {
    expect(body.parse({ ref: false, order: '' })).toEqual({ ref: null, order: null });
    expect(body.parse({ ref: '', order: ' 3 ' })).toEqual({ ref: null, order: 3 });
    expect(body.parse({ ref: '12', order: 4 })).toEqual({ ref: 12, order: 4 });
    expect(body.parse({ ref: null })).toEqual({ ref: null });
    expect(body.parse({})).toEqual({});
    expect(noneIfEmpty(z.string().email()).parse('  ')).toBeNull();
    const colour = z.object({ color: unsetIfEmpty(z.string().regex(/^#[0-9a-f]{6}$/)).optional() });
    expect(colour.parse({ color: '' })).toEqual({});
    expect(colour.parse({ color: false })).toEqual({});
    expect(colour.parse({ color: '#a4cccc' })).toEqual({ color: '#a4cccc' });
    expect(colour.safeParse({ color: 'blue' }).success).toBe(false);
  });

  it('refuse what means nothing', () => {
    for (const ref of ['abc', true, [1], 0, -1, '1.5', 2 ** 31]) {
      expect(body.safeParse({ ref }).success, JSON.stringify(ref)).toBe(false);
    }
    for (const order of ['x', true, [3], 101, -1, 1.5]) {
      expect(body.safeParse({ order }).success, JSON.stringify(order)).toBe(false);
    }
  });
});
