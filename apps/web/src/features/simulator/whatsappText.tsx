import type { ReactNode } from 'react';

const MARKERS: Record<string, 'strong' | 'em' | 's' | 'code'> = {
  '*': 'strong',
  _: 'em',
  '~': 's',
  '`': 'code',
};
// as in WhatsApp, the marked text neither starts nor ends with a space
const PATTERN =
  /(\*[^*\s](?:[^*\n]*[^*\s])?\*|_[^_\s](?:[^_\n]*[^_\s])?_|~[^~\s](?:[^~\n]*[^~\s])?~|`[^`\s](?:[^`\n]*[^`\s])?`)/g;

/**
 * WhatsApp's inline marks (*bold*, _italic_, ~strike~, `mono`) as React elements. Everything
 * stays text nodes: no markup in a message can become HTML.
 */
export function whatsappText(text: string): ReactNode[] {
  return text.split(PATTERN).map((part, index) => {
    const Tag = part.length > 2 ? MARKERS[part[0]!] : undefined;
    if (Tag && part.endsWith(part[0]!) && index % 2 === 1) {
      // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable text
      return <Tag key={index}>{part.slice(1, -1)}</Tag>;
    }
    return part;
  });
}
