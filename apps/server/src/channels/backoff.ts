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
 * Exponential backoff with jitter: the wait doubles per attempt (capped) and is drawn from its
 * upper half, so many sessions dropped together do not knock on the network at the same moment.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
