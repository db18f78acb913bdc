import type { FileListRecord } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { includesText, type Pages, patchPagedLists } from '../contacts/pagedCache';

export type FileListsPages = Pages<'files', FileListRecord>;

export const filesKeys = {
  all: ['files'] as const,
  lists: ['files', 'list'] as const,
  list: (searchParam: string) => ['files', 'list', searchParam] as const,
};

const isFull = (list: Partial<FileListRecord>): list is FileListRecord =>
  typeof list.name === 'string' && Array.isArray(list.options);

export function patchFileListCaches(
  queryClient: QueryClient,
  change: { record: Partial<FileListRecord> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'files', FileListRecord>(
    queryClient,
    filesKeys.lists,
    'files',
    'removedId' in change ? change : { item: change.record },
    { matches: (list, searchParam) => includesText(list.name, searchParam), isComplete: isFull },
  );
}
