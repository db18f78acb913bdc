import type { Contact } from '@atendi/shared';

export const CSV_FILE_NAME = 'contatos.csv';
const SEPARATOR = ';';

/** One CSV cell: quoted when it holds the separator, a quote or a line break; quotes doubled. */
export function csvCell(value: string | null | undefined): string {
  const text = value ?? '';
  if (!/[;"\r\n]/.test(text)) return text;
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The spec's export: `name;number;email`, header first, CRLF lines. The byte order mark makes
 * spreadsheet programs read the accents as UTF-8; the import skips it.
 */
export function contactsCsv(contacts: readonly Pick<Contact, 'name' | 'number' | 'email'>[]) {
  const lines = [
    ['name', 'number', 'email'].join(SEPARATOR),
    ...contacts.map((contact) =>
      [contact.name, contact.number, contact.email].map(csvCell).join(SEPARATOR),
    ),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Hands the text to the browser as a file download, built here (no server round trip). */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // revoked on the next turn: some browsers read the address after click() returns
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
