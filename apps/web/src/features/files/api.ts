import { type FileListCreate, type FileListRecord, filesContract as files } from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { MediaUploadError } from '../../app/attachments';
import { filesKeys, patchFileListCaches } from './files.cache';

export function useFileLists(searchParam: string) {
  return useInfiniteQuery({
    queryKey: filesKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(files.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export interface SaveFileListInput {
  id?: number;
  data: FileListCreate;
  /** A file chosen for each option, by the option's position in `data.options`. */
  uploads: (File | undefined)[];
}

/**
 * The spec's form for a list's files: per chosen file, the file, its type, the option's name and
 * id, in that order; the server pairs the n-th file with the n-th id.
 */
export function uploadForm(list: FileListRecord, uploads: (File | undefined)[]): FormData | null {
  const form = new FormData();
  form.append('fileId', String(list.id));
  form.append('typeArch', 'fileList');
  let any = false;
  uploads.forEach((file, index) => {
    const option = list.options[index];
    if (!file || !option) return;
    any = true;
    form.append('files', file);
    form.append('mediaType', file.type);
    form.append('name', option.name);
    form.append('id', String(option.id));
  });
  return any ? form : null;
}

/**
 * Saves the list and its options, then the chosen files (the spec's order: the files need the
 * options' ids). A failed upload leaves the saved list and throws MediaUploadError.
 */
export function useSaveFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: async ({ id, data, uploads }: SaveFileListInput) => {
      const saved =
        id === undefined
          ? await api.call(files.create, { body: data })
          : await api.call(files.update, { params: { id }, body: data });
      patchFileListCaches(queryClient, { record: saved });
      const form = uploadForm(saved, uploads);
      if (!form) return saved;
      try {
        return await api.call(files.upload, { params: { fileId: saved.id }, body: form });
      } catch (error) {
        throw new MediaUploadError(error);
      }
    },
    onSuccess: (record) => patchFileListCaches(queryClient, { record }),
  });
}

export function useDeleteFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(files.remove, { params: { id } }),
    onSuccess: (_result, id) => patchFileListCaches(queryClient, { removedId: id }),
  });
}
