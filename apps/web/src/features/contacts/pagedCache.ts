import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { setLiveQueryData } from '../../app/liveCache';

/**
 * Live patches of the infinite lists that answer `{ <items>, hasMore }` pages (contacts, tags,
 * quick messages). `field` names the page's array.
 */
export type Pages<F extends string, T> = InfiniteData<
  Record<F, T[]> & { hasMore: boolean; count?: number }
>;

interface Identified {
  id: number;
}

/** Rows of all loaded pages; a live insert can push a row onto the next page, so ids dedupe. */
export function flattenPages<F extends string, T extends Identified>(
  data: Pages<F, T> | undefined,
  field: F,
): T[] {
  const seen = new Set<number>();
  const rows: T[] = [];
  for (const page of data?.pages ?? []) {
    for (const item of page[field]) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      rows.push(item);
    }
  }
  return rows;
}

/** Replaces the row where it is listed, or puts it first when it belongs to this search. */
export function upsertInPages<F extends string, T extends Identified>(
  data: Pages<F, T> | undefined,
  field: F,
  item: Partial<T> & Identified,
  belongs: (item: T) => boolean,
  isComplete: (item: Partial<T>) => item is T,
): Pages<F, T> | undefined {
  if (!data || data.pages.length === 0) return data;
  const listed = data.pages.some((page) => page[field].some((row) => row.id === item.id));
  if (listed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        [field]: page[field].map((row) => (row.id === item.id ? { ...row, ...item } : row)),
      })),
    };
  }
  if (!isComplete(item) || !belongs(item)) return data;
  const [first, ...rest] = data.pages;
  if (!first) return data;
  const count = typeof first.count === 'number' ? { count: first.count + 1 } : {};
  return {
    ...data,
    pages: [{ ...first, ...count, [field]: [item, ...first[field]] }, ...rest],
  };
}

export function removeFromPages<F extends string, T extends Identified>(
  data: Pages<F, T> | undefined,
  field: F,
  id: number,
): Pages<F, T> | undefined {
  if (!data) return data;
  let removed = false;
  const pages = data.pages.map((page) => {
    const rows = page[field].filter((row) => row.id !== id);
    if (rows.length !== page[field].length) removed = true;
    return { ...page, [field]: rows };
  });
  if (!removed) return data;
  return {
    ...data,
    pages: pages.map((page) =>
      typeof page.count === 'number' ? { ...page, count: Math.max(0, page.count - 1) } : page,
    ),
  };
}

/**
 * Applies one change to every cached list under `listsKey`, whose third key part is the search.
 * A list being fetched meanwhile gets it again on its answer, which may have left the server
 * before the change and would put back what was just removed (a search typed a moment before a
 * delete).
 */
export function patchPagedLists<F extends string, T extends Identified>(
  queryClient: QueryClient,
  listsKey: QueryKey,
  field: F,
  change: { item: Partial<T> & Identified } | { removedId: number },
  options: {
    matches: (item: T, searchParam: string) => boolean;
    isComplete: (item: Partial<T>) => item is T;
  },
): void {
  for (const [key] of queryClient.getQueriesData<Pages<F, T>>({ queryKey: listsKey })) {
    const searchParam = typeof key[2] === 'string' ? key[2] : '';
    setLiveQueryData<Pages<F, T>>(queryClient, key, (data) =>
      'removedId' in change
        ? removeFromPages(data, field, change.removedId)
        : upsertInPages(
            data,
            field,
            change.item,
            (item) => options.matches(item, searchParam),
            options.isComplete,
          ),
    );
  }
}

/** Case- and accent-insensitive "contains", as the server's ilike/trigram search mostly is. */
export function includesText(value: string | null | undefined, term: string): boolean {
  const fold = (text: string) =>
    text
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '');
  return fold(value ?? '').includes(fold(term.trim()));
}
