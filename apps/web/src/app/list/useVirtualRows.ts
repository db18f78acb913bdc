import {
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Virtualizer,
} from '@tanstack/react-virtual';
import type { Key } from 'react';

/**
 * A pane that is not laid out (hidden behind a tab, or in a test DOM) measures 0: assume a phone-sized
 * viewport rather than render no row at all.
 */
const FALLBACK_HEIGHT = 600;
/** A conversation scrolled this close to its end is read at its end. */
const AT_END_PX = 40;

export interface VirtualRowsOptions {
  count: number;
  getItemKey: (index: number) => Key;
  /** Height of a row until it has been measured. */
  estimateSize: number;
  getScrollElement: () => HTMLElement | null;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  /** Space before the first row inside the scroller (a sticky table header). */
  scrollMargin?: number;
  paddingStart?: number;
  paddingEnd?: number;
  /**
   * A conversation: starts at the end, follows new rows while the reader is at the end, and
   * keeps the row the reader sees where it is when older rows are put above it.
   */
  chat?: boolean;
}

/**
 * The one virtualiser of the web (@tanstack/react-virtual), set up the same way for every long
 * list: the tickets, a conversation, the list tables and the kanban lanes render only the rows
 * near the viewport, each measured once shown.
 */
export function useVirtualRows<E extends Element>(
  options: VirtualRowsOptions,
): Virtualizer<HTMLElement, E> {
  const { estimateSize, chat = false } = options;
  return useVirtualizer<HTMLElement, E>({
    count: options.count,
    // rows are measured while React commits; React 19 batches the update that follows
    useFlushSync: false,
    getScrollElement: options.getScrollElement,
    getItemKey: options.getItemKey,
    estimateSize: () => estimateSize,
    overscan: options.overscan ?? 6,
    scrollMargin: options.scrollMargin,
    paddingStart: options.paddingStart,
    paddingEnd: options.paddingEnd,
    anchorTo: chat ? 'end' : 'start',
    followOnAppend: chat,
    scrollEndThreshold: chat ? AT_END_PX : undefined,
    observeElementRect: (instance, report) => {
      let height: number | null = null;
      return observeElementRect(instance, (rect) => {
        const next = rect.height > 0 ? rect : { width: rect.width, height: FALLBACK_HEIGHT };
        // a conversation read at its end stays there when its pane changes size (the
        // attachments or the reply bar open under it)
        const keepEnd =
          chat &&
          height !== null &&
          next.height !== height &&
          instance.getTotalSize() - (instance.scrollOffset ?? 0) - height <= AT_END_PX;
        height = next.height;
        report(next);
        if (keepEnd) instance.scrollToEnd();
      });
    },
    // a row measured 0 is not laid out yet (or never, in a test DOM): it keeps its estimate
    measureElement: (element, entry, instance) => {
      const size = measureElement(element, entry, instance);
      return size > 0 ? size : estimateSize;
    },
  });
}

/** The spacers standing for the rows before and after those rendered. */
export function spacersOf<E extends Element>(virtual: Virtualizer<HTMLElement, E>) {
  const rows = virtual.getVirtualItems();
  const margin = virtual.options.scrollMargin;
  const first = rows[0];
  const last = rows[rows.length - 1];
  const total = virtual.getTotalSize();
  return {
    rows,
    before: first ? first.start - margin : 0,
    after: last ? total - (last.end - margin) : 0,
  };
}
