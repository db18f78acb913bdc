import { parseWhatsappText, type WhatsappNode } from '@atendi/shared';
import { Fragment, type ReactNode } from 'react';

/** The element each of WhatsApp's marks is drawn with. */
const TAGS = { bold: 'b', italic: 'i', strike: 's', mono: 'code' } as const;

function nodesOf(pieces: WhatsappNode[], key: string): ReactNode[] {
  return pieces.map((piece, index) => {
    if (piece.type === 'text') return piece.text;
    const at = `${key}.${index}`;
    if (piece.type === 'link') {
      // The reader only gives http(s) addresses.
      return (
        <a key={at} href={piece.href} target="_blank" rel="noopener noreferrer">
          {piece.href}
        </a>
      );
    }
    const Tag = TAGS[piece.type];
    return <Tag key={at}>{nodesOf(piece.children, at)}</Tag>;
  });
}

/**
 * A text from WhatsApp as it reads there (*bold*, _italic_, ~strike~, `mono`, links), for every
 * screen that shows one. Never read as HTML: each piece is a React text node or an element built
 * here, so '<img onerror=...>' shows as the characters it is. Line breaks are kept by the
 * caller's white-space.
 */
export function whatsappText(text: string): ReactNode {
  return <Fragment>{nodesOf(parseWhatsappText(text), 'w')}</Fragment>;
}
