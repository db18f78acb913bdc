import { SEARCH_DEBOUNCE_MS } from '@atendi/shared';
import { useState } from 'react';
import { useDebouncedValue } from '../hooks';

export interface ListSearch {
  /** What the search box shows, as typed. */
  text: string;
  setText: (text: string) => void;
  /** What the list is asked for: trimmed, lower-cased, once typing paused (spec: 500 ms). */
  param: string;
}

/**
 * A list screen's search. The list's query key holds `param`, so a new search is a new list
 * that starts again at page 1.
 */
export function useListSearch(): ListSearch {
  const [text, setText] = useState('');
  const param = useDebouncedValue(text.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  return { text, setText, param };
}
