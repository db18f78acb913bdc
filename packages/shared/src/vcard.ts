/**
 * Contact cards (vCard 3.0) as WhatsApp carries them: the one reader and writer of the product
 * (the providers, message previews, the web's bubbles and quotes, the simulator).
 *
 * Written by hand: we read two properties (the name and the numbers) of cards written by every
 * phone's own contacts app, where a strict parser such as ical.js refuses a whole card for one
 * line it cannot read; what we write is six lines.
 */

export interface ContactCard {
  /** FN, the name as the card shows it ('' when it has none). */
  name: string;
  /** Each TEL, in order: WhatsApp's `waid` when the card has it (digits), else as written ('+' and digits). */
  numbers: string[];
}

/** What a card to write holds: each phone as written, with its WhatsApp id when known. */
export interface ContactCardDraft {
  name: string;
  firstName?: string;
  lastName?: string;
  org?: string;
  phones: { number?: string; waid?: string; type?: string }[];
  emails?: string[];
}

/** vCard 3.0 text values escape backslashes, commas, semicolons and line breaks. */
const escapeValue = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/[,;]/g, (char) => `\\${char}`)
    .replace(/\r?\n/g, '\\n');

/** A card's value read back; a name is one line, so its line breaks read as spaces. */
const unescapeValue = (value: string) =>
  value.replace(/\\([\\,;nN])/g, (_match, char: string) =>
    char === 'n' || char === 'N' ? ' ' : char,
  );

/** Whether a message body is a card's text (some networks give only the card's display name). */
export const isVcard = (text: string) => /^BEGIN:VCARD/im.test(text);

/**
 * The name and numbers of a card (the first, when several are sent together). A body that is
 * not a card is the card's display name as the network gave it.
 */
export function readVcard(text: string): ContactCard {
  if (!isVcard(text)) return { name: text.trim().replace(/\s+/g, ' '), numbers: [] };
  // Folded lines continue with a space or a tab.
  const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  let name: string | undefined;
  const numbers: string[] = [];
  let cards = 0;
  for (const line of lines) {
    if (/^BEGIN:VCARD\s*$/i.test(line) && ++cards > 1) break;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const [property = '', ...params] = line.slice(0, colon).split(';');
    const value = line.slice(colon + 1);
    // Apple's cards group properties: item1.TEL.
    const key = property.toUpperCase().replace(/^[\w-]+\./, '');
    if (key === 'FN' && name === undefined) name = unescapeValue(value).trim();
    if (key === 'TEL') {
      const waid = params.find((param) => param.toLowerCase().startsWith('waid='));
      const number = (waid ? waid.slice(5) : value).replace(/[^\d+]/g, '');
      if (number) numbers.push(number);
    }
  }
  return { name: name ?? '', numbers };
}

/**
 * A card as WhatsApp writes one: each number in TEL with the `waid` parameter, which is what
 * receivers read to open a chat with it.
 */
export function writeVcard(card: ContactCardDraft): string {
  const name = card.name.trim();
  const lines = ['BEGIN:VCARD', 'VERSION:3.0'];
  const first = card.firstName?.trim() ?? (card.lastName ? '' : name);
  lines.push(`N:${escapeValue(card.lastName?.trim() ?? '')};${escapeValue(first)};;;`);
  lines.push(`FN:${escapeValue(name)}`);
  if (card.org?.trim()) lines.push(`ORG:${escapeValue(card.org.trim())}`);
  for (const phone of card.phones) {
    const waid = phone.waid?.replace(/\D/g, '') ?? '';
    const number = phone.number?.trim() || (waid ? `+${waid}` : '');
    const type = (phone.type ?? 'CELL').replace(/[^\w-]/g, '') || 'CELL';
    lines.push(`TEL;type=${type};type=VOICE${waid ? `;waid=${waid}` : ''}:${escapeValue(number)}`);
  }
  for (const email of card.emails ?? []) {
    if (email.trim()) lines.push(`EMAIL:${escapeValue(email.trim())}`);
  }
  lines.push('END:VCARD');
  return lines.join('\n');
}
