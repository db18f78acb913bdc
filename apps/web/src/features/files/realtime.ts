import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { patchFileListCaches } from './files.cache';

/** `company-{id}-file`: lists created, changed or deleted by another admin. */
export function useFileListsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('file', (event) => {
    if (event.action === 'delete') {
      patchFileListCaches(queryClient, { removedId: event.fileId });
      return;
    }
    patchFileListCaches(queryClient, { record: event.files });
  });
}
