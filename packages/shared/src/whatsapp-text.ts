/**
 * WhatsApp's text formatting, read once for every place that shows text from WhatsApp (the
 * server writes it, the web and the simulator show it): *bold*, _italic_, ~strike~, `mono`, and
 * links to http(s) addresses. The answer is a tree of plain pieces, never markup: a screen turns
 * each piece into an element it builds, so nothing a sender types can become HTML.
 *
 * Written by hand: markdown parsers read another syntax (`_` and `*` both mean emphasis there,
 * `~~` strikes), and WhatsApp's rules are few: a mark opens after a space or punctuation, before
 * a non-space, and closes on the same line after a non-space, before a space or punctuation.
 */

export type WhatsappMark = 'bold' | 'italic' | 'strike' | 'mono';

export type WhatsappNode =
  | { type: 'text'; text: string }
  | { type: 'link'; href: string }
  | { type: WhatsappMark; children: WhatsappNode[] };

const MARKS: Readonly<Record<string, WhatsappMark>> = {
  '*': 'bold',
  _: 'italic',
  '~': 'strike',
  '`': 'mono',
};

/** An http(s) address, without the punctuation that ends a sentence after it. */
const LINK = /https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]*_~`]/iy;
const WORD = /[\p{L}\p{N}]/u;

const isWord = (char: string | undefined) => char !== undefined && WORD.test(char);
const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * Where each mark may close, found once per text: a marker after a non-space, before a space or
 * punctuation. Whether one closes a given opening then depends only on where that opening is,
 * so a line of unclosed marks is read in one pass, not once per mark.
 */
class Closers {
  readonly #at = new Map<string, number[]>();
  readonly #breaks: number[] = [];

  constructor(text: string) {
    for (const marker of Object.keys(MARKS)) this.#at.set(marker, []);
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index]!;
      if (char === '\n') this.#breaks.push(index);
      else if (MARKS[char] && !isSpace(text[index - 1]) && !isWord(text[index + 1])) {
        this.#at.get(char)!.push(index);
      }
    }
  }

  /** Where the mark opened at `open` closes before `end` and on its line, or -1. */
  closeOf(text: string, open: number, end: number): number {
    const close = firstAtLeast(this.#at.get(text[open]!)!, open + 2);
    const lineBreak = firstAtLeast(this.#breaks, open);
    if (close === undefined || close >= end) return -1;
    return lineBreak !== undefined && lineBreak < close ? -1 : close;
  }
}

/** The first of the sorted numbers that is at least `least`. */
function firstAtLeast(sorted: number[], least: number): number | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < least) low = middle + 1;
    else high = middle;
  }
  return sorted[low];
}

function parseRange(text: string, closers: Closers, start: number, end: number): WhatsappNode[] {
  const nodes: WhatsappNode[] = [];
  let plain = '';
  const flush = () => {
    if (plain) nodes.push({ type: 'text', text: plain });
    plain = '';
  };
  let index = start;
  while (index < end) {
    const char = text[index]!;
    const before = index === 0 ? undefined : text[index - 1];
    if ((char === 'h' || char === 'H') && !isWord(before)) {
      LINK.lastIndex = index;
      const link = LINK.exec(text)?.[0];
      if (link && index + link.length <= end) {
        flush();
        nodes.push({ type: 'link', href: link });
        index += link.length;
        continue;
      }
    }
    const mark = MARKS[char];
    const next = text[index + 1];
    if (mark && !isWord(before) && before !== char && next !== char && next && !isSpace(next)) {
      const close = closers.closeOf(text, index, end);
      if (close > 0) {
        flush();
        const children: WhatsappNode[] =
          mark === 'mono'
            ? [{ type: 'text', text: text.slice(index + 1, close) }]
            : parseRange(text, closers, index + 1, close);
        nodes.push({ type: mark, children });
        index = close + 1;
        continue;
      }
    }
    plain += char;
    index += 1;
  }
  flush();
  return nodes;
}

/** A text from WhatsApp read into its formatted pieces (line breaks stay in the text). */
export function parseWhatsappText(text: string): WhatsappNode[] {
  return parseRange(text, new Closers(text), 0, text.length);
}

/** The text without its marks, for places that show plain text (a system notification). */
export function plainWhatsappText(text: string): string {
  const plain = (nodes: WhatsappNode[]): string =>
    nodes
      .map((node) =>
        node.type === 'text' ? node.text : node.type === 'link' ? node.href : plain(node.children),
      )
      .join('');
  return plain(parseWhatsappText(text));
}

/** A text written in bold, as WhatsApp reads it (the signature's name, a menu's option). */
export const whatsappBold = (text: string) => `*${text}*`;
