import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import {
  type ReactNode,
  type UIEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

type Key = string | number;

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => Key;
  /** Height used until a row has been measured. */
  estimateSize: number;
  renderItem: (item: T, index: number) => ReactNode;
  /** Pixels rendered beyond each edge of the viewport. */
  overscan?: number;
  onScroll?: (element: HTMLDivElement) => void;
  /** Called after the rows changed, to load more when they do not fill the viewport yet. */
  onRowsChange?: (element: HTMLDivElement) => void;
  /**
   * Chat mode: starts at the bottom, follows new rows while the reader is at the bottom and
   * keeps the rows in view still when older ones are put above them.
   */
  stickToBottom?: boolean;
  /** Changing this number scrolls to the bottom (after sending a message). */
  bottomSignal?: number;
  ariaLabel?: string;
  header?: ReactNode;
  footer?: ReactNode;
  sx?: SxProps<Theme>;
  testId?: string;
}

/** jsdom and hidden panes measure 0: assume a phone-sized viewport rather than render nothing. */
const FALLBACK_HEIGHT = 600;
const AT_BOTTOM_PX = 40;

function firstAtOrBelow(offsets: number[], value: number): number {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle]! <= value) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

/**
 * Renders only the rows near the viewport, with spacers standing for the rest, so lists of
 * thousands of tickets or messages keep a few dozen rows in the page. Rows may have any height:
 * each is measured once shown.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const {
    items,
    itemKey,
    estimateSize,
    renderItem,
    overscan = 400,
    onScroll,
    onRowsChange,
    stickToBottom = false,
    bottomSignal,
    ariaLabel,
    header,
    footer,
    sx,
    testId,
  } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const sizes = useRef(new Map<Key, number>());
  const [measured, setMeasured] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  const atBottom = useRef(stickToBottom);
  const anchor = useRef<{ key: Key; delta: number } | null>(null);

  const keys = useMemo(() => items.map(itemKey), [items, itemKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `measured` counts new sizes
  const offsets = useMemo(() => {
    const result = new Array<number>(keys.length + 1);
    result[0] = 0;
    for (let index = 0; index < keys.length; index += 1) {
      result[index + 1] = result[index]! + (sizes.current.get(keys[index]!) ?? estimateSize);
    }
    return result;
  }, [keys, estimateSize, measured]);
  const total = offsets[keys.length]!;

  const height = viewport || FALLBACK_HEIGHT;
  const start = keys.length ? firstAtOrBelow(offsets, Math.max(0, scrollTop - overscan)) : 0;
  let end = start;
  while (end < keys.length && offsets[end]! < scrollTop + height + overscan) end += 1;

  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    let frame = 0;
    const rows = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const element = entry.target as HTMLElement;
        const key = element.dataset.vkey;
        if (key === undefined) continue;
        const typed: Key = element.dataset.vnum === '1' ? Number(key) : key;
        const size = Math.round(element.getBoundingClientRect().height);
        if (size > 0 && sizes.current.get(typed) !== size) {
          sizes.current.set(typed, size);
          changed = true;
        }
      }
      if (changed) {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => setMeasured((value) => value + 1));
      }
    });
    observer.current = rows;
    const box = new ResizeObserver(() => setViewport(scroller.current?.clientHeight ?? 0));
    if (scroller.current) box.observe(scroller.current);
    return () => {
      cancelAnimationFrame(frame);
      rows.disconnect();
      box.disconnect();
      observer.current = null;
    };
  }, []);

  const measure = useCallback((element: HTMLElement | null) => {
    if (element && observer.current) observer.current.observe(element);
  }, []);

  const remember = (element: HTMLDivElement, top: number) => {
    const index = firstAtOrBelow(offsets, top);
    const key = keys[index];
    anchor.current = key === undefined ? null : { key, delta: offsets[index]! - top };
    atBottom.current = element.scrollHeight - top - element.clientHeight <= AT_BOTTOM_PX;
  };

  // Chat mode: stay at the bottom, or keep the anchored row where the reader saw it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows move
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !stickToBottom) return;
    let target: number | null = null;
    if (atBottom.current) {
      // jsdom and unpainted panes report no scroll height: the model knows it
      const full = element.scrollHeight || total;
      target = Math.max(0, full - (element.clientHeight || height));
    } else if (anchor.current) {
      const index = keys.indexOf(anchor.current.key);
      if (index >= 0) target = offsets[index]! - anchor.current.delta;
    }
    if (target !== null && Math.abs(element.scrollTop - target) > 1) {
      element.scrollTop = target;
      setScrollTop(element.scrollTop || target);
    }
  }, [offsets, stickToBottom]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new signal scrolls
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || bottomSignal === undefined) return;
    atBottom.current = true;
    element.scrollTop = element.scrollHeight;
    setScrollTop(element.scrollTop || Math.max(0, total - height));
  }, [bottomSignal]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change
  useEffect(() => {
    if (scroller.current) onRowsChange?.(scroller.current);
  }, [keys]);

  const handleScroll = (event: UIEvent<HTMLDivElement>) => {
    const element = event.currentTarget;
    setScrollTop(element.scrollTop);
    remember(element, element.scrollTop);
    onScroll?.(element);
  };

  const visible: ReactNode[] = [];
  for (let index = start; index < end; index += 1) {
    const item = items[index]!;
    const key = keys[index]!;
    visible.push(
      <li key={key} ref={measure} data-vkey={key} data-vnum={typeof key === 'number' ? '1' : '0'}>
        {renderItem(item, index)}
      </li>,
    );
  }

  return (
    <Box
      ref={scroller}
      onScroll={handleScroll}
      data-testid={testId}
      sx={[
        { overflowY: 'auto', overflowAnchor: 'none', minHeight: 0, flex: 1 },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {header}
      <ul
        aria-label={ariaLabel}
        style={{
          listStyle: 'none',
          margin: 0,
          paddingLeft: 0,
          paddingRight: 0,
          paddingTop: offsets[start],
          paddingBottom: total - offsets[end]!,
        }}
      >
        {visible}
      </ul>
      {footer}
    </Box>
  );
}
