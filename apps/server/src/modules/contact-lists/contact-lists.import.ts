import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';

export type SheetKind = 'xlsx' | 'xls' | 'csv';

/**
 * What a file is, by its first bytes, whatever its name or type says: a zip (.xlsx), an OLE2
 * compound file (Excel 97-2003 .xls), else text (.csv).
 */
export async function sheetKindOf(path: string): Promise<SheetKind> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await file.read(head, 0, 8, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
    if (bytes.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'xls';
    return 'csv';
  } finally {
    await file.close();
  }
}

/** One row of the sheet: its number (the first is 1) and its cells as text. */
export interface SheetRow {
  row: number;
  cells: string[];
}

/**
 * The rows of the first worksheet (.xlsx) or of the CSV, as they stream from the file: nothing
 * holds the whole sheet. `onRead` hears how much of the file was read, for a progress bar.
 */
export async function* sheetRows(
  path: string,
  kind: 'xlsx' | 'csv',
  onRead: (read: number, size: number) => void,
): AsyncGenerator<SheetRow> {
  const { size } = await stat(path);
  let read = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      onRead(read, size);
      done(null, chunk);
    },
  });
  const input = createReadStream(path).pipe(counted);
  try {
    if (kind === 'xlsx') yield* xlsxRows(input);
    else yield* csvRows(input);
  } finally {
    input.destroy();
  }
}

async function* xlsxRows(input: NodeJS.ReadableStream): AsyncGenerator<SheetRow> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(input as never, {
    entries: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
  });
  for await (const worksheet of workbook) {
    for await (const row of worksheet) {
      const values = row.values as unknown[];
      // exceljs numbers cells from 1: values[0] is always empty.
      yield { row: row.number, cells: values.slice(1).map(cellText) };
    }
    // Only the first sheet holds the list.
    return;
  }
}

async function* csvRows(input: NodeJS.ReadableStream): AsyncGenerator<SheetRow> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    skipEmptyLines: false,
    // ';' is what spreadsheets write in Brazil; papaparse guesses among these.
    delimitersToGuess: [',', ';', '\t', '|'],
  });
  input.pipe(parser);
  let row = 0;
  for await (const cells of parser as AsyncIterable<string[]>) {
    row += 1;
    if (row === 1 && cells[0]) cells[0] = cells[0].replace(/^\uFEFF/, '');
    yield { row, cells };
  }
}

/** A cell's text: rich text joined, a link's text, a formula's result, a number as written. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    // Phone numbers typed into a numeric cell: no exponent, no decimals.
    return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const cell = value as {
      richText?: { text: string }[];
      text?: unknown;
      result?: unknown;
    };
    if (Array.isArray(cell.richText)) return cell.richText.map((part) => part.text).join('');
    if (cell.text !== undefined) return cellText(cell.text);
    if (cell.result !== undefined) return cellText(cell.result);
  }
  return '';
}

/** The columns a list's sheet may have, by the header names people use. */
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

export interface SheetColumns {
  name: number;
  number: number;
  email: number;
}

/** Where the name, number and email are, from the header row; undefined without a number. */
export function columnsOf(header: string[]): SheetColumns | undefined {
  const names = header.map(
    (cell) =>
      HEADERS[
        cell
          .trim()
          .toLowerCase()
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
      ],
  );
  const number = names.indexOf('number');
  if (number < 0) return undefined;
  return { name: names.indexOf('name'), number, email: names.indexOf('email') };
}
