import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import unzipper from 'unzipper';
import type { Config } from '../config';
import { AppError } from './errors';
import type { Storage } from './storage';
import { discardUploads, type MultipartSource, readUploads } from './uploads';

/**
 * The one reader of imported sheets (contacts, contact lists): .xlsx through exceljs' streaming
 * reader, CSV through papaparse, both row by row from the stored file, so no import holds a whole
 * sheet in memory. Before a row is handed over the sheet is measured: an .xlsx archive is
 * inflated once into nothing and refused when it grows out of proportion to its size (a zip
 * bomb), and the rows are counted and refused past the row limit or the time budget, with an
 * error naming the limit and what was found. Nothing is stored for a refused sheet.
 */

export type SheetKind = 'xlsx' | 'xls' | 'csv';

/**
 * What browsers and spreadsheet programs call the files an import takes; what the file is
 * decides, by its first bytes (a CSV is often sent as Excel's type, an .xlsx as a plain stream).
 */
export const SHEET_UPLOAD_TYPES = [
  'text/csv',
  'text/plain',
  'application/csv',
  'text/comma-separated-values',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/octet-stream',
] as const;

/** How far an archive may grow: this many times its own size (real sheets: 5 to 20). */
export const ARCHIVE_MAX_RATIO = 100;
/** And never past this, whatever its size (a 100,000-row sheet is some 30 MB inflated). */
export const ARCHIVE_MAX_BYTES = 512 * 1024 * 1024;
/** Below this an archive is never out of proportion (tiny sheets compress very well). */
const ARCHIVE_FLOOR_BYTES = 16 * 1024 * 1024;

/** The limits of the environment (IMPORT_MAX_ROWS, IMPORT_TIME_BUDGET_SECONDS). */
export const importLimits = (
  config: Pick<Config, 'IMPORT_MAX_ROWS' | 'IMPORT_TIME_BUDGET_SECONDS'>,
): SheetLimits => ({
  maxRows: config.IMPORT_MAX_ROWS,
  timeBudgetMs: config.IMPORT_TIME_BUDGET_SECONDS * 1000,
});

export interface SheetLimits {
  /** Data rows (the header not counted) a sheet may have. */
  maxRows: number;
  /** How long measuring the sheet may take. */
  timeBudgetMs: number;
}

/** One row of the sheet: its number (the first is 1) and its cells as text. */
export interface SheetRow {
  row: number;
  cells: string[];
}

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

export interface OpenedSheet {
  /** Non-empty data rows (the header not counted). */
  rows: number;
  /** The non-empty rows, header first, as they stream from the file. */
  read(): AsyncGenerator<SheetRow>;
}

const tooSlow = (limits: SheetLimits) =>
  new AppError('ERR_IMPORT_TOO_SLOW', 413, {
    limitSeconds: Math.round(limits.timeBudgetMs / 1000),
  });

/**
 * Measures a stored sheet and answers a reader of it: refuses legacy .xls (415), an archive out
 * of proportion (413 ERR_IMPORT_ARCHIVE_TOO_LARGE), more rows than `maxRows` (413
 * ERR_IMPORT_TOO_MANY_ROWS with `limit` and `rows`) and a sheet that cannot be measured within
 * the time budget (413 ERR_IMPORT_TOO_SLOW).
 */
export async function openSheet(
  path: string,
  limits: SheetLimits,
  unsupported: (kind: 'xls') => Error,
): Promise<OpenedSheet> {
  const kind = await sheetKindOf(path);
  if (kind === 'xls') throw unsupported(kind);
  const deadline = Date.now() + limits.timeBudgetMs;
  if (kind === 'xlsx') await checkArchive(path, deadline, limits);
  let rows = -1;
  for await (const _ of sheetRows(path, kind)) {
    rows += 1;
    // Counted on past the limit, within the budget, so the answer says how many there are.
    if (Date.now() > deadline) {
      if (rows > limits.maxRows) throw tooManyRows(limits, rows, false);
      throw tooSlow(limits);
    }
  }
  rows = Math.max(rows, 0);
  if (rows > limits.maxRows) throw tooManyRows(limits, rows, true);
  return { rows, read: () => sheetRows(path, kind) };
}

const tooManyRows = (limits: SheetLimits, rows: number, exact: boolean) =>
  new AppError('ERR_IMPORT_TOO_MANY_ROWS', 413, {
    limit: limits.maxRows,
    rows,
    // Past the time budget the count stopped: the sheet has at least that many.
    ...(exact ? {} : { atLeast: true }),
  });

/**
 * Inflates every entry of the archive, in the order the streaming reader will meet them, into
 * nothing, counting the real bytes (an entry's header may lie about its size): more than
 * ARCHIVE_MAX_RATIO times the file's size (above a floor), or ARCHIVE_MAX_BYTES, is refused.
 */
async function checkArchive(path: string, deadline: number, limits: SheetLimits) {
  const { size } = await stat(path);
  const allowed = Math.min(
    ARCHIVE_MAX_BYTES,
    Math.max(ARCHIVE_FLOOR_BYTES, size * ARCHIVE_MAX_RATIO),
  );
  let inflated = 0;
  const refused = () =>
    new AppError('ERR_IMPORT_ARCHIVE_TOO_LARGE', 413, { limit: ARCHIVE_MAX_RATIO });
  const zip = createReadStream(path).pipe(unzipper.Parse({ forceStream: true }));
  try {
    for await (const entry of zip as AsyncIterable<unzipper.Entry>) {
      await pipeline(
        entry,
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            inflated += chunk.length;
            if (inflated > allowed) done(refused());
            else if (Date.now() > deadline) done(tooSlow(limits));
            else done();
          },
        }),
      );
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('ERR_VALIDATION', 400, {
      fields: [{ path: 'body.file', message: 'Not a readable .xlsx file' }],
    });
  } finally {
    zip.destroy();
  }
}

/** The non-empty rows of the first worksheet (.xlsx) or of the CSV, header first. */
async function* sheetRows(path: string, kind: 'xlsx' | 'csv'): AsyncGenerator<SheetRow> {
  const input = createReadStream(path);
  try {
    for await (const row of kind === 'xlsx' ? xlsxRows(input) : csvRows(input)) {
      if (row.cells.some((cell) => cell.trim() !== '')) yield row;
    }
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

/** The columns a sheet of people may have, by the header names people use. */
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

/** A person of a row, by the header's columns (cells trimmed; missing ones empty). */
export function personOf(columns: SheetColumns, cells: string[]) {
  const at = (index: number) => (index >= 0 ? (cells[index] ?? '') : '').trim();
  return { name: at(columns.name), number: at(columns.number), email: at(columns.email) };
}

/** What an import's caller answers when its form holds no file, or holds a legacy .xls. */
export interface SheetUploadErrors {
  missing: () => Error;
  legacy: () => Error;
}

/**
 * The one sheet of an import form, measured and opened, handed to `work`; the upload is deleted
 * afterwards whatever happens, so an import keeps nothing of the file it read.
 */
export async function withUploadedSheet<T>(
  source: MultipartSource,
  storage: Storage,
  companyId: number,
  limits: SheetLimits,
  errors: SheetUploadErrors,
  work: (sheet: OpenedSheet) => Promise<T>,
): Promise<T> {
  const form = await readUploads(source, storage, companyId, {
    fileFields: ['file'],
    maxFiles: 1,
    types: SHEET_UPLOAD_TYPES,
  });
  try {
    const [file] = form.files;
    if (!file) throw errors.missing();
    return await work(await openSheet(storage.pathOf(file.key), limits, errors.legacy));
  } finally {
    await discardUploads(storage, form.files);
  }
}
