import type { Tag } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { patchTagCaches } from './tags.cache';

export interface TagEvent {
  action: 'create' | 'update' | 'delete';
  tag?: Partial<Tag> & { id: number };
  tagId?: number;
}

/**
 * The original product's `company-{id}-tag` event, named here because the shared topic list
 * does not have it yet. Ticket counts are not followed live: every message would refetch them.
 */
export function useTagsRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<TagEvent>(`company-${companyId}-tag`, (event) => {
    if (event?.action === 'delete') {
      const id = event.tagId ?? event.tag?.id;
      if (id !== undefined) patchTagCaches(queryClient, { removedId: Number(id) });
      return;
    }
    if (event?.tag && typeof event.tag.id === 'number') {
      patchTagCaches(queryClient, { tag: event.tag });
    }
  });
}
