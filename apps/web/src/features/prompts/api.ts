import { type PromptCreate, type PromptUpdate, promptsContract as prompts } from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { everyPage } from '../../app/everyPage';
import { useCompanyEvent } from '../../app/socket';

export const promptsKeys = {
  all: ['prompts'] as const,
  list: (searchParam: string) => ['prompts', 'list', searchParam] as const,
  options: ['prompts', 'options'] as const,
};

export function usePrompts(searchParam: string) {
  return useInfiniteQuery({
    queryKey: promptsKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(prompts.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** The company's prompts as choices (the queue and connection dialogs); none without the plan. */
export function usePromptOptions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: promptsKeys.options,
    enabled,
    meta: { silent: true },
    queryFn: async ({ signal }) => {
      const pages = await everyPage((pageNumber) =>
        api.call(prompts.list, { query: { pageNumber }, signal }),
      );
      return pages.flatMap((page) =>
        page.prompts.map((prompt) => ({ id: prompt.id, name: prompt.name })),
      );
    },
  });
}

export type SavePromptInput =
  | { id: number; data: PromptUpdate }
  | { id?: undefined; data: PromptCreate };

export function useSavePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: SavePromptInput) =>
      id === undefined
        ? api.call(prompts.create, { body: data })
        : api.call(prompts.update, { params: { id }, body: data }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: promptsKeys.all }),
  });
}

export function useDeletePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(prompts.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: promptsKeys.all }),
  });
}

/** Another admin's changes reach the list as they happen. */
export function usePromptsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('prompt', () => {
    void queryClient.invalidateQueries({ queryKey: promptsKeys.all });
  });
}
