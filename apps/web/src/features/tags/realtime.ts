import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { patchTagCaches } from './tags.cache';

/** Ticket counts are not followed live: every message would refetch them. */
export function useTagsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('tag', (event) => {
    if (event?.action === 'delete') {
      if (event.tagId !== undefined)
        patchTagCaches(queryClient, { removedId: Number(event.tagId) });
      return;
    }
    if (event?.tag && typeof event.tag.id === 'number') {
      patchTagCaches(queryClient, { tag: event.tag });
    }
  });
}
