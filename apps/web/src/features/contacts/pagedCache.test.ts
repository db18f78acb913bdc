import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { type Pages, patchPagedLists } from './pagedCache';

interface Row {
  id: number;
  name: string;
}
type RowPages = Pages<'rows', Row>;

const matches = (row: Row, term: string) => row.name.includes(term);
const isComplete = (row: Partial<Row>): row is Row => typeof row.name === 'string';

describe('patchPagedLists', () => {
  it('keeps a row removed out of the answer that left the server before the removal', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let stored: Row[] = [{ id: 1, name: 'Agenda 5166' }];
    const answers: (() => void)[] = [];
    const key = ['rows', 'list', 'agenda'];
    const observer = new QueryObserver<RowPages>(queryClient, {
      queryKey: key,
      // The server reads the rows at once; the answer travels until the test lets it arrive.
      queryFn: () => {
        const read = stored.filter((row) => matches(row, 'Agenda'));
        return new Promise<RowPages>((resolve) =>
          answers.push(() =>
            resolve({
              pages: [{ rows: read, hasMore: false, count: read.length }],
              pageParams: [1],
            }),
          ),
        );
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await expect.poll(() => answers.length).toBe(1);

    // The row is deleted while the search's answer is on its way.
    stored = [];
    patchPagedLists<'rows', Row>(
      queryClient,
      ['rows', 'list'],
      'rows',
      { removedId: 1 },
      {
        matches,
        isComplete,
      },
    );
    answers[0]!();
    await expect
      .poll(() => queryClient.getQueryData<RowPages>(key)?.pages[0])
      .toEqual({ rows: [], hasMore: false, count: 0 });
    // made again on the answer, without asking the server again
    expect(answers).toHaveLength(1);
    unsubscribe();
  });

  it('leaves a list at rest as patched, without asking again', async () => {
    const queryClient = new QueryClient();
    const key = ['rows', 'list', ''];
    queryClient.setQueryData<RowPages>(key, {
      pages: [
        {
          rows: [
            { id: 1, name: 'Ana' },
            { id: 2, name: 'Bia' },
          ],
          hasMore: false,
          count: 2,
        },
      ],
      pageParams: [1],
    });
    patchPagedLists<'rows', Row>(
      queryClient,
      ['rows', 'list'],
      'rows',
      { removedId: 1 },
      {
        matches,
        isComplete,
      },
    );
    expect(queryClient.getQueryData<RowPages>(key)?.pages[0]).toEqual({
      rows: [{ id: 2, name: 'Bia' }],
      hasMore: false,
      count: 1,
    });
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(false);
  });
});
