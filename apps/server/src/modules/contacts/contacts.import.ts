/** The columns a contacts CSV may have, by the header names people use. */
const HEADERS: Record<string, 'name' | 'number' | 'email'> = {
  name: 'name',
  nome: 'name',
  number: 'number',
  numero: 'number',
  phone: 'number',
  telefone: 'number',
  celular: 'number',
  whatsapp: 'number',
  email: 'email',
  'e-mail': 'email',
};

export interface CsvContact {
  name: string;
  number: string;
  email: string;
}

/**
 * Rows of a contacts CSV (`name;number;email` or `name,number,email`, header first, quotes as
 * in RFC 4180). Undefined when the header names no number column.
 */
export function parseContactsCsv(text: string): string[][] | undefined {
  const content = text.replace(/^\uFEFF/, '');
  const firstLine = content.slice(0, content.search(/\r?\n|$/));
  const delimiter =
    count(firstLine, ';') >= count(firstLine, ',') && firstLine.includes(';') ? ';' : ',';
  const rows = parseCsv(content, delimiter);
  const header = rows[0]?.map((cell) => HEADERS[normalizeHeader(cell)]);
  if (!header?.includes('number')) return undefined;
  return rows;
}

export function contactsOf(rows: string[][]): CsvContact[] {
  const header = rows[0]!.map((cell) => HEADERS[normalizeHeader(cell)]);
  const column = (name: 'name' | 'number' | 'email') => header.indexOf(name);
  const [nameAt, numberAt, emailAt] = [column('name'), column('number'), column('email')];
  return rows.slice(1).map((row) => ({
    name: (nameAt >= 0 ? row[nameAt] : '')?.trim() ?? '',
    number: (row[numberAt] ?? '').trim(),
    email: (emailAt >= 0 ? row[emailAt] : '')?.trim() ?? '',
  }));
}

const normalizeHeader = (cell: string) =>
  cell
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');

const count = (text: string, char: string) => text.split(char).length - 1;

function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"' && cell === '') {
      quoted = true;
    } else if (char === delimiter) {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      if (row.some((value) => value.trim() !== '')) rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  row.push(cell);
  if (row.some((value) => value.trim() !== '')) rows.push(row);
  return rows;
}
