import { LIST_SCROLL_THRESHOLD_PX } from '@atendi/shared';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import type { SxProps, Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import {
  type Key,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { spacersOf, useVirtualRows } from './useVirtualRows';

export interface ListColumn<T> {
  /** Unique within the table. */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'center' | 'right';
  /** Styles of the column's body cells. */
  sx?: SxProps<Theme>;
  /** Styles of the column's header cell. */
  headerSx?: SxProps<Theme>;
  /** What names the value on a phone's card; the header when it is text, else nothing. */
  label?: string;
}

/** What an infinite query gives to load the next page (react-query's result fits). */
export interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

export interface ListTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: readonly ListColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /** The buttons of a row, in a last 'Ações' column. */
  rowActions?: (row: T) => ReactNode;
  /** A row's own styles (a tint by state); what it means must be told in a cell too. */
  rowSx?: (row: T) => SxProps<Theme> | undefined;
  /** The first page is on its way. */
  loading: boolean;
  /** The list could not be read: shown instead of `emptyText` when no row is listed. */
  failed?: boolean;
  emptyText: string;
  /** An infinite list: the next page loads when the scroll is within 100 px of the end. */
  more?: MorePages;
  /** When it changes (a new search), the table scrolls back to its first row. */
  resetKey?: unknown;
  /**
   * On a phone each row is a card, each value under its column's name (the default); false
   * keeps the table, for a screen whose columns already fit a phone.
   */
  cardsOnPhone?: boolean;
}

/** Height of a row until it has been measured (a small row with its icon buttons). */
const ROW_ESTIMATE = 49;

/** Text wraps between words only, never inside one (a phone's cards may break a long word). */
const wholeWords = { overflowWrap: 'normal', wordBreak: 'normal' } as const;

/**
 * A phone's rows as cards: every value on a line of its own after its column's name, the row's
 * buttons at the end, nothing wider than the screen. The header row is kept for screen readers
 * only, and the names drawn beside the values are left out of what they read (the '/ ""' of
 * `content`), so a cell reads as its value, as on a wide screen.
 */
const phoneCards = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& table, & tbody': { display: 'block' },
    '& thead': {
      position: 'absolute',
      width: '1px',
      height: '1px',
      overflow: 'hidden',
      clip: 'rect(0 0 0 0)',
    },
    '& tbody tr': {
      display: 'block',
      py: 1,
      borderBottom: 1,
      borderColor: 'divider',
    },
    '& tbody td': { display: 'block', borderBottom: 0, py: 0.5, px: 2 },
    '& tbody td[data-label], & tbody td[data-actions]': {
      display: 'flex',
      // a right-aligned column's cell is reversed by MUI: the name comes first all the same
      flexDirection: 'row',
      alignItems: 'baseline',
      gap: 1.5,
      minHeight: 36,
      textAlign: 'left',
      overflowWrap: 'anywhere',
    },
    // a value centred in its column starts after its name instead
    '& tbody td[data-label] > *': { marginInline: 0 },
    '& tbody td[data-label]::before': {
      content: 'attr(data-label) / ""',
      flex: '0 0 7.5rem',
      color: 'text.secondary',
      fontSize: '0.8125rem',
    },
    '& tbody td[data-actions]': { alignItems: 'center', justifyContent: 'flex-end' },
  },
});

/** The name a cell shows on a phone's card. */
const labelOf = <T,>(column: ListColumn<T>) =>
  column.label ?? (typeof column.header === 'string' && column.header ? column.header : undefined);

const withOwn = (base: SxProps<Theme>, sx: SxProps<Theme> | undefined) =>
  [base, ...(Array.isArray(sx) ? sx : [sx])] as SxProps<Theme>;

/**
 * The table of a list screen: sticky header, loading, empty and error rows, infinite pages.
 * Only the rows near the viewport are in the page (a spacer row stands for the others), so a
 * list of thousands stays as light as its first page; `aria-rowcount` and each row's
 * `aria-rowindex` tell assistive technology where a row sits in the whole list.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  const { label, columns, rows, rowKey, rowActions, loading, failed, emptyText, more } = props;
  const { t } = useTranslation('common');
  const scroller = useRef<HTMLDivElement>(null);
  const hasNextPage = more?.hasNextPage ?? false;
  const isFetchingNextPage = more?.isFetchingNextPage ?? false;
  const fetchNextPage = more?.fetchNextPage;

  const loadMoreIfNear = useCallback(() => {
    const element = scroller.current;
    if (!element || !fetchNextPage || !hasNextPage || isFetchingNextPage) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (distance <= LIST_SCROLL_THRESHOLD_PX) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // a first page shorter than a tall screen cannot be scrolled: keep loading until it can
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check when rows change
  useEffect(loadMoreIfNear, [loadMoreIfNear, rows.length]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search starts at the top
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [props.resetKey]);

  const header = useRef<HTMLTableSectionElement>(null);
  const [headerHeight, setHeaderHeight] = useState(0);
  useLayoutEffect(() => setHeaderHeight(header.current?.offsetHeight ?? 0), []);
  const virtual = useVirtualRows<HTMLTableRowElement>({
    count: rows.length,
    getItemKey: (index) => rowKey(rows[index]!),
    estimateSize: ROW_ESTIMATE,
    getScrollElement: () => scroller.current,
    scrollMargin: headerHeight,
  });
  const { rows: shown, before, after } = spacersOf(virtual);

  const busy = loading || isFetchingNextPage;
  const span = columns.length + (rowActions ? 1 : 0);
  const spacer = (height: number) =>
    height > 0 && (
      <tr aria-hidden data-spacer style={{ height }}>
        <td colSpan={span} style={{ padding: 0, border: 0 }} />
      </tr>
    );

  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      ref={scroller}
      onScroll={more ? loadMoreIfNear : undefined}
      sx={[
        { flex: 1, minHeight: 240, overflow: 'auto' },
        props.cardsOnPhone !== false && phoneCards,
      ]}
    >
      <Table
        stickyHeader
        size="small"
        aria-label={label}
        aria-busy={busy}
        // while more pages may come, the total is not known yet (-1, as ARIA says)
        aria-rowcount={hasNextPage ? -1 : rows.length + 1}
      >
        <TableHead ref={header}>
          <TableRow aria-rowindex={1}>
            {columns.map((column) => (
              <TableCell
                key={column.id}
                align={column.align}
                sx={withOwn({ whiteSpace: 'nowrap' }, column.headerSx)}
              >
                {column.header}
              </TableCell>
            ))}
            {rowActions && (
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                {t('list.actions')}
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {spacer(before)}
          {shown.map((item) => {
            const row = rows[item.index]!;
            return (
              <TableRow
                key={item.key}
                ref={virtual.measureElement}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                hover
                sx={props.rowSx?.(row)}
              >
                {columns.map((column) => (
                  <TableCell
                    key={column.id}
                    align={column.align}
                    data-label={labelOf(column)}
                    sx={withOwn(wholeWords, column.sx)}
                  >
                    {column.cell(row)}
                  </TableCell>
                ))}
                {rowActions && (
                  <TableCell align="center" data-actions sx={{ whiteSpace: 'nowrap' }}>
                    {rowActions(row)}
                  </TableCell>
                )}
              </TableRow>
            );
          })}
          {spacer(after)}
          {busy && (
            <TableRow>
              <TableCell colSpan={span} sx={{ p: 0 }}>
                <LinearProgress aria-label={t('loading')} />
              </TableCell>
            </TableRow>
          )}
          {!busy && rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={span} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                {failed ? t('errors.listFailed') : emptyText}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
