/** The most pages read for one list of options: a bound, not a size any company reaches. */
const MAX_PAGES = 50;

/**
 * Every page of a paged list, read one after another until `hasMore` is false: for selects that
 * offer the whole list (a company's prompts or integrations), never for lists that grow large.
 */
export async function everyPage<P extends { hasMore: boolean }>(
  read: (pageNumber: number) => Promise<P>,
): Promise<P[]> {
  const pages: P[] = [];
  do {
    pages.push(await read(pages.length + 1));
  } while (pages[pages.length - 1]!.hasMore && pages.length < MAX_PAGES);
  return pages;
}
