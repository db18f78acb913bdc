/** vCard 3.0 text values escape backslashes, commas, semicolons and line breaks. */
const escapeValue = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/[,;]/g, (char) => `\\${char}`)
    .replace(/\r?\n/g, '\\n');

const unescapeValue = (value: string) =>
  value.replace(/\\([\\,;nN])/g, (_match, char: string) =>
    char === 'n' || char === 'N' ? '\n' : char,
  );

/**
 * A contact card as WhatsApp sends it: the number in TEL with the `waid` parameter, which is
 * what receivers read to open a chat with it.
 */
export function buildVcard(name: string, number: string): string {
  const digits = number.replace(/\D/g, '');
  const cleanName = name.trim();
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:;${escapeValue(cleanName)};;;`,
    `FN:${escapeValue(cleanName)}`,
    `TEL;type=CELL;type=VOICE;waid=${digits}:+${digits}`,
    'END:VCARD',
  ].join('\n');
}

export interface VcardSummary {
  name: string;
  numbers: string[];
}

/** The name and numbers of a received card; anything else in it is ignored. */
export function parseVcard(text: string): VcardSummary {
  // folded lines continue with a space or a tab
  const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  let name = '';
  const numbers: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const [property = '', ...params] = line.slice(0, colon).split(';');
    const value = line.slice(colon + 1);
    const key = property.toUpperCase().replace(/^ITEM\d+\./, '');
    if (key === 'FN') name = unescapeValue(value).trim();
    if (key === 'TEL') {
      const waid = params.find((param) => param.toLowerCase().startsWith('waid='));
      const number = waid ? waid.slice(5) : value;
      const digits = number.replace(/[^\d+]/g, '');
      if (digits) numbers.push(digits);
    }
  }
  return { name, numbers };
}
