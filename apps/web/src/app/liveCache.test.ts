import { type InfiniteData, InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { setLiveQueryData } from './liveCache';

type Page = { ids: number[]; next: number | null };
type Data = InfiniteData<Page, number>;

const addFirst = (id: number) => (data: Data | undefined) =>
  data && {
    ...data,
    pages: data.pages.map((page, index) =>
      index === 0 ? { ...page, ids: [id, ...page.ids.filter((known) => known !== id)] } : page,
    ),
  };

/** An infinite list whose answers travel until the test lets each arrive. */
function list(queryClient: QueryClient, key: string[]) {
  const answers: (() => void)[] = [];
  const observer = new InfiniteQueryObserver<Page, Error, Data, string[], number>(queryClient, {
    queryKey: key,
    initialPageParam: 1,
    getNextPageParam: (page) => page.next ?? undefined,
    queryFn: ({ pageParam }) =>
      new Promise<Page>((resolve) =>
        answers.push(() =>
          resolve(pageParam === 1 ? { ids: [3, 2], next: 2 } : { ids: [1], next: null }),
        ),
      ),
  });
  const unsubscribe = observer.subscribe(() => {});
  return { observer, answers, unsubscribe };
}

describe('setLiveQueryData', () => {
  it('makes a change again on the first answer, which had no data to change', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = ['live', 'first'];
    const { answers, unsubscribe } = list(queryClient, key);
    await expect.poll(() => answers.length).toBe(1);
    setLiveQueryData<Data>(queryClient, key, addFirst(9));
    expect(queryClient.getQueryData(key)).toBeUndefined();
    answers[0]!();
    await expect.poll(() => queryClient.getQueryData<Data>(key)?.pages[0]?.ids).toEqual([9, 3, 2]);
    expect(answers).toHaveLength(1);
    unsubscribe();
  });

  it('keeps a change made while the next page is fetched, which adds to the pages as they were', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = ['live', 'next'];
    const { observer, answers, unsubscribe } = list(queryClient, key);
    await expect.poll(() => answers.length).toBe(1);
    answers[0]!();
    await expect.poll(() => queryClient.getQueryData<Data>(key)?.pages.length).toBe(1);
    const more = observer.fetchNextPage();
    await expect.poll(() => answers.length).toBe(2);
    setLiveQueryData<Data>(queryClient, key, addFirst(9));
    answers[1]!();
    await more;
    expect(queryClient.getQueryData<Data>(key)?.pages.map((page) => page.ids)).toEqual([
      [9, 3, 2],
      [1],
    ]);
    unsubscribe();
  });

  it('changes a query at rest once and leaves nothing listening', () => {
    const queryClient = new QueryClient();
    const key = ['live', 'rest'];
    queryClient.setQueryData<Data>(key, { pages: [{ ids: [1], next: null }], pageParams: [1] });
    let calls = 0;
    setLiveQueryData<Data>(queryClient, key, (data) => {
      calls += 1;
      return addFirst(2)(data);
    });
    expect(calls).toBe(1);
    expect(queryClient.getQueryData<Data>(key)?.pages[0]?.ids).toEqual([2, 1]);
    queryClient.setQueryData<Data>(key, (data) => data);
    expect(calls).toBe(1);
  });
});
