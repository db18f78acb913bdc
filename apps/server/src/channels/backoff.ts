/**
 * Backoff written by hand: a formula of two lines, where the retry libraries would own the loop
 * (the sessions and the spool schedule their own timers and must stop them at once).
 */

/** How a provider tries again after losing its link: a bounded number of waits that grow. */
export interface RetryPolicy {
  /** Attempts after a drop before the session gives up (status TIMEOUT). */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 8,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
};

/**
 * The wait before trying again after failed attempt `attempt` (1 for the first failure):
 * `baseDelayMs`, doubled per attempt up to `maxDelayMs`. The one backoff formula of the server.
 */
export function backoffCeiling(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * The same wait with jitter, drawn from its upper half, so many sessions dropped together do
 * not knock on the network at the same moment.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = backoffCeiling(attempt, policy);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
