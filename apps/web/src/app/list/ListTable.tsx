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
import { type Key, type ReactNode, useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface ListColumn<T> {
  /** Unique within the table. */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'center' | 'right';
  /** Hidden on screens narrower than this; another cell should show its content there. */
  hideBelow?: 'sm' | 'md';
  /** Styles of the column's body cells. */
  sx?: SxProps<Theme>;
  /** Styles of the column's header cell. */
  headerSx?: SxProps<Theme>;
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
}

const hiddenBelow = (breakpoint: 'sm' | 'md') =>
  ({ display: { xs: 'none', [breakpoint]: 'table-cell' } }) as const;

/** A column's own styles after the rule that hides it on small screens. */
function cellSx(hideBelow: 'sm' | 'md' | undefined, sx: SxProps<Theme> | undefined) {
  const own = Array.isArray(sx) ? sx : [sx];
  return [hideBelow ? hiddenBelow(hideBelow) : false, ...own] as SxProps<Theme>;
}

/** The table of a list screen: sticky header, loading, empty and error rows, infinite pages. */
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

  const busy = loading || isFetchingNextPage;
  const span = columns.length + (rowActions ? 1 : 0);

  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      ref={scroller}
      onScroll={more ? loadMoreIfNear : undefined}
      sx={{ flex: 1, minHeight: 240, overflow: 'auto' }}
    >
      <Table stickyHeader size="small" aria-label={label} aria-busy={busy}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.id}
                align={column.align}
                sx={cellSx(column.hideBelow, column.headerSx)}
              >
                {column.header}
              </TableCell>
            ))}
            {rowActions && <TableCell align="center">{t('list.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)} hover sx={props.rowSx?.(row)}>
              {columns.map((column) => (
                <TableCell
                  key={column.id}
                  align={column.align}
                  sx={cellSx(column.hideBelow, column.sx)}
                >
                  {column.cell(row)}
                </TableCell>
              ))}
              {rowActions && (
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  {rowActions(row)}
                </TableCell>
              )}
            </TableRow>
          ))}
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
