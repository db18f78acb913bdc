import {
  ANNOUNCEMENT_EVENT,
  type Announcement,
  type AnnouncementCreate,
  type AnnouncementPayload,
  type AnnouncementUpdate,
  announcementsContract as announcements,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { saveWithAttachment } from '../../app/attachments';
import { useSocketEvent } from '../../app/socket';

export const announcementsKeys = {
  all: ['announcements'] as const,
  list: (searchParam: string) => ['announcements', 'list', searchParam] as const,
};

export function useAnnouncements(searchParam: string) {
  return useInfiniteQuery({
    queryKey: announcementsKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(announcements.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** Every list of announcements reloads on `company-announcement`, heard by every company. */
export function useAnnouncementsRealtime() {
  const queryClient = useQueryClient();
  useSocketEvent<AnnouncementPayload>(ANNOUNCEMENT_EVENT, () => {
    void queryClient.invalidateQueries({ queryKey: announcementsKeys.all });
  });
}

export interface SaveAnnouncementInput {
  id?: number;
  data: AnnouncementCreate | AnnouncementUpdate;
  /** An image to attach after saving (replacing any); null removes the current one. */
  media?: File | null;
}

const isRecord = (value: unknown): value is Announcement =>
  typeof value === 'object' && value !== null && typeof (value as Announcement).id === 'number';

/** Saves the text, then the image through media-upload (the file needs the record's id). */
export function useSaveAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data, media }: SaveAnnouncementInput) =>
      saveWithAttachment(
        () =>
          id === undefined
            ? api.call(announcements.create, { body: data as AnnouncementCreate })
            : api.call(announcements.update, { params: { id }, body: data }),
        (saved) => (isRecord(saved) ? saved.id : id),
        media,
        {
          typeArch: 'announcements',
          attach: (recordId, form) =>
            api.call(announcements.attachMedia, { params: { id: recordId }, body: form }),
          detach: (recordId) => api.call(announcements.detachMedia, { params: { id: recordId } }),
        },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: announcementsKeys.all }),
  });
}

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(announcements.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: announcementsKeys.all }),
  });
}
