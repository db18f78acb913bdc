import { useState } from 'react';

/**
 * Which record a list page's add/edit dialog shows: none (closed), a new one, or one to edit.
 * `key` remounts the dialog per record, so its form starts from that record.
 */
export function useRecordDialog<T extends { id: number }>() {
  const [state, setState] = useState<{ record?: T } | null>(null);
  return {
    open: state !== null,
    record: state?.record,
    key: state?.record?.id ?? 'new',
    add: () => setState({}),
    edit: (record: T) => setState({ record }),
    close: () => setState(null),
  };
}
