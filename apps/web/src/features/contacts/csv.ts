import type { Contact } from '@atendi/shared';
import { csvText } from '../../app/csv';

export { csvCell, downloadText } from '../../app/csv';

export const CSV_FILE_NAME = 'contatos.csv';

/** The spec's export: `name;number;email`, header first (the import skips the byte order mark). */
export function contactsCsv(contacts: readonly Pick<Contact, 'name' | 'number' | 'email'>[]) {
  return csvText(
    ['name', 'number', 'email'],
    contacts.map((contact) => [contact.name, contact.number, contact.email]),
  );
}
