import type { QuickMessage } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { includesText, type Pages, patchPagedLists } from '../contacts/pagedCache';

export interface QuickMessagesPage {
  records: QuickMessage[];
  count: number;
  hasMore: boolean;
}

export type QuickMessagesPages = Pages<'records', QuickMessage>;

export const quickMessagesKeys = {
  all: ['quick-messages'] as const,
  lists: ['quick-messages', 'list'] as const,
  list: (searchParam: string) => ['quick-messages', 'list', searchParam] as const,
};

/** The server searches shortcodes and message texts. */
export const quickMessageMatches = (record: QuickMessage, searchParam: string) =>
  includesText(record.shortcode, searchParam) || includesText(record.message, searchParam);

const isFull = (record: Partial<QuickMessage>): record is QuickMessage =>
  typeof record.shortcode === 'string' && typeof record.message === 'string';

export function patchQuickMessageCaches(
  queryClient: QueryClient,
  change: { record: Partial<QuickMessage> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'records', QuickMessage>(
    queryClient,
    quickMessagesKeys.lists,
    'records',
    'removedId' in change ? change : { item: change.record },
    { matches: quickMessageMatches, isComplete: isFull },
  );
}
