import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { type Key, type ReactNode, useEffect, useLayoutEffect, useRef } from 'react';
import { spacersOf, useVirtualRows } from './useVirtualRows';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** A row's key; it must not change when rows are added before or after it. */
  itemKey: (item: T) => Key;
  /** Height used until a row has been measured. */
  estimateSize: number;
  renderItem: (item: T, index: number) => ReactNode;
  onScroll?: (element: HTMLDivElement) => void;
  /** Called after the rows changed (to load more when they do not fill the viewport yet). */
  onRowsChange?: (element: HTMLDivElement) => void;
  /**
   * Chat mode: starts at the bottom, follows new rows while the reader is at the bottom and
   * keeps the row in view still when older ones are put above it.
   */
  stickToBottom?: boolean;
  /** Changing this number scrolls to the bottom (after sending a message). */
  bottomSignal?: number;
  /** Space above the first row and below the last. */
  padding?: number;
  ariaLabel?: string;
  footer?: ReactNode;
  sx?: SxProps<Theme>;
  testId?: string;
}

/**
 * A list (ul/li) that renders only the rows near the viewport, with spacers standing for the
 * rest, so lists of thousands of tickets or messages keep a few dozen rows in the page.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, itemKey, renderItem, onScroll, onRowsChange, stickToBottom = false } = props;
  const { bottomSignal, padding = 0, ariaLabel, footer, sx, testId } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualRows<HTMLLIElement>({
    count: items.length,
    getItemKey: (index) => itemKey(items[index]!),
    estimateSize: props.estimateSize,
    getScrollElement: () => scroller.current,
    paddingStart: padding,
    paddingEnd: padding,
    chat: stickToBottom,
  });
  const { rows, before, after } = spacersOf(virtual);

  // a conversation opens at its newest row (later rows are followed by the virtualiser)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when mounted
  useLayoutEffect(() => {
    if (stickToBottom && items.length > 0) virtual.scrollToEnd();
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new signal scrolls
  useLayoutEffect(() => {
    if (bottomSignal !== undefined) virtual.scrollToEnd();
  }, [bottomSignal]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change
  useEffect(() => {
    if (scroller.current) onRowsChange?.(scroller.current);
  }, [items]);

  return (
    <Box
      ref={scroller}
      onScroll={onScroll ? (event) => onScroll(event.currentTarget) : undefined}
      data-testid={testId}
      sx={[
        { overflowY: 'auto', overflowAnchor: 'none', minHeight: 0, flex: 1 },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <ul
        aria-label={ariaLabel}
        style={{ listStyle: 'none', margin: 0, padding: `${before}px 0 ${after}px` }}
      >
        {rows.map((row) => (
          <li key={row.key} data-index={row.index} ref={virtual.measureElement}>
            {renderItem(items[row.index]!, row.index)}
          </li>
        ))}
      </ul>
      {footer}
    </Box>
  );
}
