import { describe, expect, it } from 'vitest';
import { backoffCeiling, backoffDelay, DEFAULT_RETRY_POLICY } from './backoff';

describe('backoffDelay', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1_000, maxDelayMs: 30_000 };

  it('doubles per attempt up to the cap, drawn from the upper half of the wait', () => {
    const bounds = [1, 2, 3, 4, 5, 6, 10].map((attempt) => [
      backoffDelay(attempt, policy, () => 0),
      backoffDelay(attempt, policy, () => 1),
    ]);
    expect(bounds).toEqual([
      [500, 1_000],
      [1_000, 2_000],
      [2_000, 4_000],
      [4_000, 8_000],
      [8_000, 16_000],
      [15_000, 30_000],
      [15_000, 30_000],
    ]);
  });

  it('spreads sessions that dropped together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(3, policy)));
    expect(delays.size).toBeGreaterThan(10);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(2_000);
  });
});

describe('backoffCeiling', () => {
  it('doubles from the base per failed attempt, never past the cap, without jitter', () => {
    const policy = { baseDelayMs: 250, maxDelayMs: 30_000 };
    expect([0, 1, 2, 3, 7, 8, 9, 40, 5_000].map((n) => backoffCeiling(n, policy))).toEqual([
      250, 250, 500, 1_000, 16_000, 30_000, 30_000, 30_000, 30_000,
    ]);
  });
});
