import { DEFAULT_SCHEDULES } from '@atendi/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { isOpen, nextOpening } from './automations.hours';

/** Mon-Fri 08:00-18:00, Saturday 08:00-12:00, Sunday closed. */
const week = DEFAULT_SCHEDULES;
const SP = 'America/Sao_Paulo';
const serverZone = process.env.TZ;

afterEach(() => {
  process.env.TZ = serverZone;
});

describe.each(['UTC', 'Asia/Tokyo', 'America/Los_Angeles'])('with the server in %s', (zone) => {
  it("reads the hours on the company's clock", () => {
    process.env.TZ = zone;
    // Friday 2026-11-27: 10:59 UTC is 07:59 in São Paulo, 11:00 UTC is 08:00.
    expect(isOpen(week, new Date('2026-11-27T10:59:00Z'), SP)).toBe(false);
    expect(isOpen(week, new Date('2026-11-27T11:00:00Z'), SP)).toBe(true);
    expect(isOpen(week, new Date('2026-11-27T20:59:00Z'), SP)).toBe(true);
    expect(isOpen(week, new Date('2026-11-27T21:00:00Z'), SP)).toBe(false);
    // Sunday is closed all day; Saturday closes at noon.
    expect(isOpen(week, new Date('2026-11-29T15:00:00Z'), SP)).toBe(false);
    expect(isOpen(week, new Date('2026-11-28T15:30:00Z'), SP)).toBe(false);
    // The same instant in Tokyo is Saturday 06:00: closed there.
    expect(isOpen(week, new Date('2026-11-27T21:00:00Z'), 'Asia/Tokyo')).toBe(false);
  });

  it('names each closed period by its end: the next opening', () => {
    process.env.TZ = zone;
    // Friday evening waits for Saturday 08:00; Saturday afternoon for Monday 08:00.
    expect(nextOpening(week, new Date('2026-11-27T22:00:00Z'), SP)?.toISOString()).toBe(
      '2026-11-28T11:00:00.000Z',
    );
    expect(nextOpening(week, new Date('2026-11-28T16:00:00Z'), SP)?.toISOString()).toBe(
      '2026-11-30T11:00:00.000Z',
    );
    // Before Monday's opening, the same morning.
    expect(nextOpening(week, new Date('2026-11-30T09:00:00Z'), SP)?.toISOString()).toBe(
      '2026-11-30T11:00:00.000Z',
    );
    const closed = week.map((day) => ({ ...day, startTime: '00:00', endTime: '00:00' }));
    expect(nextOpening(closed, new Date('2026-11-27T22:00:00Z'), SP)).toBeUndefined();
  });
});
