import {
  type Campaign,
  type CampaignCreate,
  type CampaignSettingsSave,
  type CampaignUpdate,
  campaignsContract as campaigns,
  connectionsContract,
  contactListsContract,
  tagsContract,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { saveWithAttachment } from '../../app/attachments';
import { campaignsKeys, patchCampaignCaches } from './campaigns.cache';

export function useCampaigns(searchParam: string) {
  return useInfiniteQuery({
    queryKey: campaignsKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(campaigns.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** A campaign with its report (counts and the sends over time). */
export function useCampaign(id: number) {
  return useQuery({
    queryKey: campaignsKeys.one(id),
    // The counts only: every recipient and list entry is for the original product's report.
    queryFn: ({ signal }) =>
      api.call(campaigns.get, { params: { id }, query: { withRows: false }, signal }),
  });
}

/** What the campaign dialog chooses from: lists, connections and tags. */
export function useCampaignLookups(enabled: boolean) {
  const lists = useQuery({
    queryKey: ['contactLists', 'options'],
    queryFn: ({ signal }) => api.call(contactListsContract.options, { query: {}, signal }),
    enabled,
  });
  const connections = useQuery({
    queryKey: ['campaigns', 'connections'],
    queryFn: ({ signal }) => api.call(connectionsContract.list, { signal }),
    enabled,
  });
  const tags = useQuery({
    queryKey: ['campaigns', 'tags'],
    queryFn: ({ signal }) => api.call(tagsContract.listAll, { query: {}, signal }),
    enabled,
  });
  return {
    lists: lists.data ?? [],
    connections: (connections.data ?? []).map((c) => ({ id: c.id, name: c.name })),
    tags: (tags.data ?? []).map((tag) => ({ id: tag.id, name: tag.name })),
  };
}

export interface SaveCampaignInput {
  id?: number;
  data: CampaignCreate | CampaignUpdate;
  /** A file to attach after saving (replacing any); null removes the current one. */
  media?: File | null;
}

export function useSaveCampaign() {
  const queryClient = useQueryClient();
  const patch = (record: Campaign) => patchCampaignCaches(queryClient, { record });
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data, media }: SaveCampaignInput) =>
      saveWithAttachment(
        () =>
          id === undefined
            ? api.call(campaigns.create, { body: data as CampaignCreate })
            : api.call(campaigns.update, { params: { id }, body: data }),
        (saved) => saved.id,
        media,
        {
          typeArch: 'campaign',
          attach: (campaignId, form) =>
            api.call(campaigns.attachMedia, { params: { id: campaignId }, body: form }),
          detach: (campaignId) => api.call(campaigns.detachMedia, { params: { id: campaignId } }),
        },
        patch,
      ),
    onSuccess: patch,
    onError: () => queryClient.invalidateQueries({ queryKey: campaignsKeys.lists }),
  });
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(campaigns.remove, { params: { id } }),
    onSuccess: (_result, id) => patchCampaignCaches(queryClient, { removedId: id }),
  });
}

/** Cancel (stop) or restart; a failure's message is toasted by the caller. */
export function useCampaignAction(action: 'cancel' | 'restart') {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (id: number) => api.call(campaigns[action], { params: { id } }),
    onSuccess: (record) => patchCampaignCaches(queryClient, { record }),
  });
}

export function useCampaignSettings() {
  return useQuery({
    queryKey: campaignsKeys.settings,
    queryFn: ({ signal }) => api.call(campaigns.settings, { query: {}, signal }),
  });
}

export function useSaveCampaignSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (body: CampaignSettingsSave) => api.call(campaigns.saveSettings, { body }),
    onSuccess: (saved) => queryClient.setQueryData(campaignsKeys.settings, saved),
  });
}
