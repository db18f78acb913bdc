import { vi } from 'vitest';

const px = (value: string) => Number.parseFloat(value) || 0;

/**
 * The test DOM lays nothing out, so a virtual list would not know where its reader is. This gives
 * every element a viewport of `viewport` px, every rendered row (an element with `data-index`)
 * `row` px, a scroll height made of those rows and the spacers' inline sizes, and a `scrollTo`
 * that moves `scrollTop` within it and fires `scroll`, as a browser does.
 * Undone by `vi.restoreAllMocks()`.
 */
export function fakeLayout({ viewport = 600, row = 64 } = {}) {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(viewport);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.index === undefined ? 0 : row;
  });
  const scrollHeight = (element: HTMLElement) => {
    let height = element.querySelectorAll('[data-index]').length * row;
    for (const spacer of element.querySelectorAll<HTMLElement>('ul, [data-spacer]')) {
      height += px(spacer.style.paddingTop) + px(spacer.style.paddingBottom);
      height += px(spacer.style.height);
    }
    return Math.max(height, viewport);
  };
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return scrollHeight(this);
  });
  const scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
    const top = typeof options === 'number' ? options : (options?.top ?? this.scrollTop);
    this.scrollTop = Math.max(0, Math.min(top, scrollHeight(this) - viewport));
    this.dispatchEvent(new Event('scroll'));
  };
  Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
    configurable: true,
    writable: true,
    value: scrollTo,
  });
}

/** The reader scrolls `element` to `top`, as a wheel would. */
export function scrollReaderTo(element: HTMLElement, top: number) {
  element.scrollTop = top;
  element.dispatchEvent(new Event('scroll'));
}

/** The screen's media queries, answered by `matches` (a phone, a touch screen...). */
export function fakeMedia(matches: (query: string) => boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }));
}
