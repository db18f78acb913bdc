import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * A live change (a realtime event, or an answer to the user's own action) written into one
 * cached query. While that query is being fetched, its coming answer may have left the server
 * before the change, a first fetch has no data to change yet, and a next page is added to the
 * pages as they were when it was asked for: each would lose the change. So the change is made
 * again on whatever the fetch brings. Live changes are upserts and removals by id, so making one
 * twice is harmless, and those made during one fetch are made again in the order they came.
 */
export function setLiveQueryData<T>(
  queryClient: QueryClient,
  key: QueryKey,
  change: (data: T | undefined) => T | undefined,
): void {
  queryClient.setQueryData<T>(key, change);
  const cache = queryClient.getQueryCache();
  const query = cache.find({ queryKey: key, exact: true });
  if (query?.state.fetchStatus !== 'fetching') return;
  const unsubscribe = cache.subscribe((event) => {
    if (event.query !== query) return;
    if (event.type === 'removed') {
      unsubscribe();
      return;
    }
    if (event.type !== 'updated' || query.state.fetchStatus === 'fetching') return;
    unsubscribe();
    queryClient.setQueryData<T>(key, change);
  });
}
