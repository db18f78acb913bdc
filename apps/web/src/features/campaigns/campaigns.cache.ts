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

export function patchCampaignCaches(
  queryClient: QueryClient,
  change: { record: Partial<Campaign> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'records', Campaign>(
    queryClient,
    campaignsKeys.lists,
    'records',
    'removedId' in change ? change : { item: change.record },
    { matches: (record, search) => includesText(record.name, search), isComplete: isFull },
  );
}
