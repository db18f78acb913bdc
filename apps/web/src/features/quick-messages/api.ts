import {
  type QuickMessage,
  type QuickMessageCreate,
  type QuickMessageUpdate,
  quickMessagesContract as quickMessages,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { saveWithAttachment } from '../../app/attachments';
import { patchQuickMessageCaches, quickMessagesKeys } from './quick-messages.cache';

export function useQuickMessages(searchParam: string) {
  return useInfiniteQuery({
    queryKey: quickMessagesKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(quickMessages.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export interface SaveQuickMessageInput {
  id?: number;
  data: QuickMessageCreate | QuickMessageUpdate;
  /** A file to attach after saving (replacing any); null removes the current one. */
  media?: File | null;
}

const isRecord = (value: unknown): value is QuickMessage =>
  typeof value === 'object' && value !== null && typeof (value as QuickMessage).id === 'number';

/**
 * Saves the text, then the attachment through media-upload (the spec's order: the file needs the
 * record's id). A failed upload leaves the saved text and says so.
 */
export function useSaveQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    // the dialog places field errors itself and toasts the rest
    meta: { silent: true },
    mutationFn: ({ id, data, media }: SaveQuickMessageInput) =>
      saveWithAttachment(
        () =>
          id === undefined
            ? api.call(quickMessages.create, { body: data as QuickMessageCreate })
            : api.call(quickMessages.update, { params: { id }, body: data }),
        (saved) => (isRecord(saved) ? saved.id : id),
        media,
        {
          typeArch: 'quickMessage',
          attach: (recordId, form) =>
            api.call(quickMessages.attachMedia, { params: { id: recordId }, body: form }),
          detach: (recordId) => api.call(quickMessages.detachMedia, { params: { id: recordId } }),
        },
        (saved) => {
          if (isRecord(saved)) patchQuickMessageCaches(queryClient, { record: saved });
        },
      ),
    onSuccess: (saved) => {
      if (isRecord(saved)) patchQuickMessageCaches(queryClient, { record: saved });
      else void queryClient.invalidateQueries({ queryKey: quickMessagesKeys.lists });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: quickMessagesKeys.lists }),
  });
}

export function useDeleteQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(quickMessages.remove, { params: { id } }),
    onSuccess: (_result, id) => patchQuickMessageCaches(queryClient, { removedId: id }),
  });
}
