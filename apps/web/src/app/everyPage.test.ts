import { describe, expect, it } from 'vitest';
import { everyPage } from './everyPage';

describe('everyPage', () => {
  it('reads the pages in order until one says there is no more', async () => {
    const asked: number[] = [];
    const pages = await everyPage(async (pageNumber) => {
      asked.push(pageNumber);
      return { items: [pageNumber], hasMore: pageNumber < 3 };
    });
    expect(asked).toEqual([1, 2, 3]);
    expect(pages.flatMap((page) => page.items)).toEqual([1, 2, 3]);
  });

  it('stops at its bound when a list never ends', async () => {
    const pages = await everyPage(async () => ({ hasMore: true }));
    expect(pages).toHaveLength(50);
  });
});
