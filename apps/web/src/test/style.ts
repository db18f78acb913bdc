import { hexToRgb } from '@mui/material/styles';

/**
 * An element's computed colour as `rgb(r, g, b)`, as a browser answers it: the test DOM keeps a
 * hex value as the style sheet wrote it.
 */
export function colorOf(element: Element, property: 'color' | 'backgroundColor'): string {
  const value = getComputedStyle(element)[property];
  return value.startsWith('#') ? hexToRgb(value) : value;
}
