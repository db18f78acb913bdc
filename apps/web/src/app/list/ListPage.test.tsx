import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeLayout, scrollReaderTo } from '../../test/layout';
import { renderWithApp } from '../../test/render';
import { useConfirmation } from '../components/ConfirmDialog';
import { ListPage } from './ListPage';
import { ListTable } from './ListTable';
import { DeleteRowAction, EditRowAction } from './RowActions';
import { useListSearch } from './useListSearch';

interface Fruit {
  id: number;
  name: string;
  color: string;
}

const FRUITS: Fruit[] = Array.from({ length: 25 }, (_, index) => ({
  id: index + 1,
  name: `Fruta ${index + 1}`,
  color: index % 2 ? 'verde' : 'vermelha',
}));
const PAGE = 10;

interface Source {
  read: (search: string, page: number) => Promise<{ fruits: Fruit[]; hasMore: boolean }>;
  remove: (id: number) => Promise<void>;
  edit: (fruit: Fruit) => void;
}

/** A list screen built on the shared parts, over fruits kept in memory. */
function FruitsPage({ source }: { source: Source }) {
  const search = useListSearch();
  const fruits = useInfiniteQuery({
    queryKey: ['fruits', search.param],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => source.read(search.param, pageParam),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const remove = useMutation({ mutationFn: (id: number) => source.remove(id) });
  const deletion = useConfirmation<Fruit>(
    (fruit) => remove.mutateAsync(fruit.id),
    'Fruta excluída',
  );
  const rows = fruits.data?.pages.flatMap((page) => page.fruits) ?? [];
  return (
    <ListPage
      title="Frutas"
      search={search}
      actions={<button type="button">Nova fruta</button>}
      columns={[
        { id: 'name', header: 'Nome', cell: (fruit) => fruit.name },
        { id: 'color', header: 'Cor', cell: (fruit) => fruit.color },
      ]}
      rows={rows}
      rowKey={(fruit) => fruit.id}
      rowActions={(fruit) => (
        <>
          <EditRowAction label={`Editar ${fruit.name}`} onClick={() => source.edit(fruit)} />
          <DeleteRowAction
            label={`Excluir ${fruit.name}`}
            onClick={() => deletion.ask(fruit)}
            disabled={fruit.id === 2}
            title={fruit.id === 2 ? 'Esta não pode ser excluída' : undefined}
          />
        </>
      )}
      loading={fruits.isPending}
      failed={fruits.isError}
      emptyText="Nenhuma fruta encontrada"
      more={fruits}
      confirmDelete={{
        confirmation: deletion,
        title: (fruit) => `Excluir ${fruit.name}?`,
        message: 'Ela some da lista.',
      }}
    />
  );
}

function memorySource(fruits = FRUITS) {
  const source = {
    read: vi.fn(async (search: string, page: number) => {
      const found = fruits.filter((fruit) => fruit.name.toLowerCase().includes(search));
      return {
        fruits: found.slice((page - 1) * PAGE, page * PAGE),
        hasMore: found.length > page * PAGE,
      };
    }),
    remove: vi.fn(async (_id: number) => {}),
    edit: vi.fn(),
  };
  return source;
}

/** The test DOM lays nothing out: rows are 50 px high, in a table 400 px high. */
function layOut() {
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.querySelectorAll('tr').length * 50;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
}

afterEach(() => {
  vi.restoreAllMocks();
});

const pagesRead = (source: ReturnType<typeof memorySource>) =>
  source.read.mock.calls.map(([search, page]) => `${search}:${page}`);

describe('ListPage', () => {
  it('shows the title, the actions and each row under its columns, with named row buttons', async () => {
    const source = memorySource();
    renderWithApp(<FruitsPage source={source} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Frutas' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nova fruta' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Frutas' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Nome', 'Cor', 'Ações']);
    const row = (await within(table).findByText('Fruta 3')).closest('tr')!;
    expect(within(row).getByText('vermelha')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Editar Fruta 3' }));
    expect(source.edit).toHaveBeenCalledWith(FRUITS[2]);
    const undeletable = within(table).getByRole('button', { name: 'Excluir Fruta 2' });
    expect(undeletable).toHaveProperty('disabled', true);
  });

  it("names each value for a phone's card after its column, and marks the row's buttons", async () => {
    renderWithApp(<FruitsPage source={memorySource()} />);
    const row = (await screen.findByText('Fruta 3')).closest('tr')!;
    const cells = Array.from(row.querySelectorAll('td'));
    expect(cells.map((cell) => cell.dataset.label)).toEqual(['Nome', 'Cor', undefined]);
    expect(cells.at(-1)!.hasAttribute('data-actions')).toBe(true);
  });

  it('keeps loading pages while the list is shorter than its window', async () => {
    const source = memorySource();
    renderWithApp(<FruitsPage source={source} />);
    // the test DOM's zero heights: the end is always in sight, so every page comes
    const table = screen.getByRole('table', { name: 'Frutas' });
    await waitFor(() => expect(table.getAttribute('aria-rowcount')).toBe('26'), { timeout: 3000 });
    expect(pagesRead(source)).toEqual([':1', ':2', ':3']);
  });

  it('loads the next page once scrolled within 100 px of the end, and not before', async () => {
    layOut();
    const source = memorySource();
    renderWithApp(<FruitsPage source={source} />);
    const table = screen.getByRole('table', { name: 'Frutas' });
    await within(table).findByText('Fruta 10');
    const scroller = table.parentElement!;

    // the header and 10 rows: 550 px, 150 px below the window
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pagesRead(source)).toEqual([':1']);
    scroller.scrollTop = 40; // 110 px from the end
    fireEvent.scroll(scroller);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pagesRead(source)).toEqual([':1']);

    scroller.scrollTop = 60; // 90 px from the end
    fireEvent.scroll(scroller);
    await waitFor(() => expect(pagesRead(source)).toEqual([':1', ':2']));
    expect(await within(table).findByText('Fruta 11')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pagesRead(source)).toEqual([':1', ':2']);
  });

  it('searches once typing pauses, from page 1 and the top of the table', async () => {
    layOut();
    const source = memorySource();
    renderWithApp(<FruitsPage source={source} />);
    const table = screen.getByRole('table', { name: 'Frutas' });
    await within(table).findByText('Fruta 10');
    const scroller = table.parentElement!;
    scroller.scrollTop = 60;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(pagesRead(source)).toEqual([':1', ':2']));
    scroller.scrollTop = 600;

    const box = screen.getByRole('searchbox', { name: 'Pesquisar' });
    fireEvent.change(box, { target: { value: ' FRUTA 1' } });
    fireEvent.change(box, { target: { value: ' FRUTA 2' } });
    expect(await within(table).findByText('Fruta 25', {}, { timeout: 2000 })).toBeTruthy();
    expect(within(table).queryByText('Fruta 3')).toBeNull();
    // one search for what was typed last, lower-cased and trimmed, from its first page
    expect(pagesRead(source)).toEqual([':1', ':2', 'fruta 2:1']);
    expect(scroller.scrollTop).toBe(0);
  });

  it('says when nothing matches, and when the list could not be loaded', async () => {
    const source = memorySource([]);
    const { unmount } = renderWithApp(<FruitsPage source={source} />);
    expect(await screen.findByText('Nenhuma fruta encontrada')).toBeTruthy();
    unmount();

    source.read.mockRejectedValue(new Error('offline'));
    renderWithApp(<FruitsPage source={source} />);
    const table = screen.getByRole('table', { name: 'Frutas' });
    expect(
      await within(table).findByText('Não foi possível carregar a lista de registros'),
    ).toBeTruthy();
    expect(within(table).queryByText('Nenhuma fruta encontrada')).toBeNull();
  });

  it('deletes a row only once the confirmation is accepted', async () => {
    const source = memorySource();
    renderWithApp(<FruitsPage source={source} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir Fruta 4' }));
    let dialog = await screen.findByRole('dialog', { name: 'Excluir Fruta 4?' });
    expect(within(dialog).getByText('Ela some da lista.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(source.remove).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Excluir Fruta 4' }));
    dialog = await screen.findByRole('dialog', { name: 'Excluir Fruta 4?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(source.remove).toHaveBeenCalledWith(4));
    expect(await screen.findByText('Fruta excluída')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps only the rows in view of 1,000 in the page, and tells where each one sits', async () => {
    fakeLayout({ viewport: 600, row: 49 });
    const fruits = Array.from({ length: 1_000 }, (_, index) => ({
      id: index + 1,
      name: `Fruta ${index + 1}`,
      color: 'verde',
    }));
    const columns = [
      { id: 'name', header: 'Nome', cell: (fruit: Fruit) => fruit.name },
      { id: 'color', header: 'Cor', cell: (fruit: Fruit) => fruit.color },
    ];
    const { rerender } = renderWithApp(
      <ListTable
        label="Frutas"
        columns={columns}
        rows={fruits}
        rowKey={(fruit) => fruit.id}
        loading={false}
        emptyText="Nenhuma"
      />,
    );
    const table = screen.getByRole('table', { name: 'Frutas' });
    const bodyRows = () => within(table).getAllByRole('row').slice(1);
    expect(table.getAttribute('aria-rowcount')).toBe('1001');
    expect(bodyRows().length).toBeGreaterThan(5);
    expect(bodyRows().length).toBeLessThan(30);
    expect(bodyRows()[0]!.getAttribute('aria-rowindex')).toBe('2');
    expect(within(table).getByText('Fruta 1')).toBeTruthy();
    expect(within(table).queryByText('Fruta 1000')).toBeNull();

    // halfway down: the first rows have left, those in view came, numbered in the whole list
    scrollReaderTo(table.parentElement!, 500 * 49);
    await waitFor(() => expect(within(table).queryByText('Fruta 1')).toBeNull());
    expect(within(table).getByText('Fruta 501')).toBeTruthy();
    expect(bodyRows().length).toBeLessThan(30);
    const indexes = bodyRows().map((row) => Number(row.getAttribute('aria-rowindex')));
    expect(indexes).toContain(502);
    expect(indexes).toEqual(indexes.map((_, at) => indexes[0]! + at));

    // while more pages may come, the whole count is not known
    rerender(
      <ListTable
        label="Frutas"
        columns={columns}
        rows={fruits}
        rowKey={(fruit) => fruit.id}
        loading={false}
        emptyText="Nenhuma"
        more={{ hasNextPage: true, isFetchingNextPage: false, fetchNextPage: () => {} }}
      />,
    );
    expect(screen.getByRole('table', { name: 'Frutas' }).getAttribute('aria-rowcount')).toBe('-1');
  });
});
