import type { Campaign } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { includesText, type Pages, patchPagedLists } from '../contacts/pagedCache';

export type CampaignsPages = Pages<'records', Campaign>;

export const campaignsKeys = {
  all: ['campaigns'] as const,
  lists: ['campaigns', 'list'] as const,
  list: (searchParam: string) => ['campaigns', 'list', searchParam] as const,
  one: (id: number) => ['campaigns', 'one', id] as const,
  settings: ['campaigns', 'settings'] as const,
};

const isFull = (record: Partial<Campaign>): record is Campaign =>
  typeof record.name === 'string' && typeof record.status === 'string';

/** The newest copy of a campaign in the list caches, if any. */
function cachedCopy(queryClient: QueryClient, id: number): Campaign | undefined {
  for (const [, data] of queryClient.getQueriesData<CampaignsPages>({
    queryKey: campaignsKeys.lists,
  })) {
    for (const page of data?.pages ?? []) {
      const found = page.records.find((record) => record.id === id);
      if (found) return found;
    }
  }
  return undefined;
}

export function patchCampaignCaches(
  queryClient: QueryClient,
  change: { record: Partial<Campaign> & { id: number } } | { removedId: number },
): void {
  if ('record' in change && change.record.updatedAt) {
    // A save's answer may arrive after the live updates of the sends it started: the older
    // copy does not replace the newer one.
    const cached = cachedCopy(queryClient, change.record.id);
    if (cached && cached.updatedAt > change.record.updatedAt) return;
  }
  patchPagedLists<'records', Campaign>(
    queryClient,
    campaignsKeys.lists,
    'records',
    'removedId' in change ? change : { item: change.record },
    { matches: (record, search) => includesText(record.name, search), isComplete: isFull },
  );
}
