import type { Message } from '@atendi/shared';
import type { TFunction } from 'i18next';
import { Fragment, type ReactNode } from 'react';
import { readVcard } from './components/MessageMedia';

/**
 * The messaging app's text markers: *bold* and ~strike~, and links. The body is never read as
 * HTML: every piece becomes a React text node, an element we build, or an anchor to an
 * http(s) address, so '<img onerror=...>' shows as the characters it is.
 */
const MARKERS: Record<string, 'b' | 's'> = { '*': 'b', '~': 's' };
const LINK = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/gi;

function linkify(text: string, key: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    if (start > last) nodes.push(text.slice(last, start));
    nodes.push(
      <a key={`${key}-a${start}`} href={match[0]} target="_blank" rel="noopener noreferrer">
        {match[0]}
      </a>,
    );
    last = start + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

/** A marker opens only before a non-space and closes after one, on the same line. */
function findClose(text: string, marker: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\n') return -1;
    if (char === marker && index > from && text[index - 1] !== ' ') return index;
  }
  return -1;
}

function parse(text: string, key: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let plain = '';
  let index = 0;
  const flush = () => {
    if (plain) nodes.push(...linkify(plain, `${key}-${nodes.length}`));
    plain = '';
  };
  while (index < text.length) {
    const char = text[index]!;
    const tag = MARKERS[char];
    const next = text[index + 1];
    const before = index === 0 ? ' ' : text[index - 1]!;
    if (tag && next && next !== ' ' && next !== char && !/[\p{L}\p{N}]/u.test(before)) {
      const close = findClose(text, char, index + 1);
      if (close > index + 1) {
        flush();
        const Tag = tag;
        nodes.push(
          <Tag key={`${key}-${index}`}>
            {parse(text.slice(index + 1, close), `${key}-${index}`)}
          </Tag>,
        );
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

/** The message body as React nodes; line breaks are kept by the caller's white-space. */
export function formatBody(body: string): ReactNode {
  return <Fragment>{parse(body, 'm')}</Fragment>;
}

/**
 * A message in one line, for notifications: the text typed (or a file's caption), else a label
 * in the 'messages' namespace of `t`. A contact card is named, never shown as its vCard; a
 * location's link and a missed call's note are data, not words to show.
 */
export function messageLabel(
  message: Pick<Message, 'mediaType' | 'body'>,
  t: TFunction<'messages'>,
): string {
  const { mediaType, body } = message;
  if (mediaType === 'vcard') {
    const name = readVcard(body).name;
    return name ? t('labels.contactCard', { name }) : t('labels.vcard');
  }
  if (mediaType === 'locationMessage' || mediaType === 'call_log') return t(`labels.${mediaType}`);
  if (body.trim() || mediaType === 'chat') return body;
  return t(`labels.${mediaType}`);
}
