import type { Tag } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { includesText, type Pages, patchPagedLists } from '../contacts/pagedCache';

export type TagRow = Tag & { ticketsCount: number };

export interface TagsPage {
  tags: TagRow[];
  count: number;
  hasMore: boolean;
}

export type TagsPages = Pages<'tags', TagRow>;

export const tagsKeys = {
  all: ['tags'] as const,
  lists: ['tags', 'list'] as const,
  list: (searchParam: string) => ['tags', 'list', searchParam] as const,
};

const isFullTag = (tag: Partial<TagRow>): tag is TagRow =>
  typeof tag.name === 'string' && typeof tag.color === 'string';

/** Applies one tag change to every cached list; a new tag has no tickets yet. */
export function patchTagCaches(
  queryClient: QueryClient,
  change: { tag: Partial<TagRow> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'tags', TagRow>(
    queryClient,
    tagsKeys.lists,
    'tags',
    'removedId' in change ? change : { item: change.tag },
    {
      matches: (tag, searchParam) => includesText(tag.name, searchParam),
      isComplete: (tag): tag is TagRow => isFullTag({ ticketsCount: 0, ...tag }),
    },
  );
}
