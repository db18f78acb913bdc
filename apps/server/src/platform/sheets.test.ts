import { describe, expect, it } from 'vitest';
import { bombXlsx, fileOf, peopleCsv, peopleXlsx } from '../../test/sheets';
import { AppError } from './errors';
import { columnsOf, openSheet, personOf, type SheetLimits } from './sheets';

const limits: SheetLimits = { maxRows: 1_000, timeBudgetMs: 60_000 };
const unsupported = () => new Error('xls');

async function rowsOf(path: string, given = limits) {
  const sheet = await openSheet(path, given, unsupported);
  const rows: string[][] = [];
  for await (const { cells } of sheet.read()) rows.push(cells);
  return { count: sheet.rows, rows };
}

async function refusal(path: string, given = limits) {
  const error = await openSheet(path, given, unsupported).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the sheet reader', () => {
  it('reads a CSV with quotes, line breaks and a BOM, skipping empty rows', async () => {
    const csv = '\uFEFFname,number\n"A ""B""\nC",5511\n\n ,\n"Dora",5512\n';
    const { count, rows } = await rowsOf(fileOf(Buffer.from(csv), 'c.csv'));
    expect(rows).toEqual([
      ['name', 'number'],
      ['A "B"\nC', '5511'],
      ['Dora', '5512'],
    ]);
    expect(count).toBe(2);
    const columns = columnsOf(rows[0]!)!;
    expect(personOf(columns, rows[1]!)).toEqual({ name: 'A "B"\nC', number: '5511', email: '' });
  });

  it('reads an .xlsx and a CSV the same way, and counts their rows', async () => {
    const xlsx = await rowsOf(fileOf(await peopleXlsx(3), 'p.xlsx'));
    const csv = await rowsOf(fileOf(peopleCsv(3), 'p.csv'));
    expect(xlsx).toEqual(csv);
    expect(xlsx.count).toBe(3);
    expect(xlsx.rows[1]).toEqual(['Pessoa 0', '5511900000000', '']);
  });

  it('refuses a sheet over the row limit, naming the limit and the rows found', async () => {
    for (const [name, content] of [
      ['over.xlsx', await peopleXlsx(1_234)],
      ['over.csv', peopleCsv(1_234)],
    ] as const) {
      const error = await refusal(fileOf(content, name));
      expect(error.code, name).toBe('ERR_IMPORT_TOO_MANY_ROWS');
      expect(error.statusCode).toBe(413);
      expect(error.extra).toEqual({ limit: 1_000, rows: 1_234 });
    }
    // Exactly the limit is taken.
    expect((await rowsOf(fileOf(peopleCsv(1_000), 'edge.csv'))).count).toBe(1_000);
  });

  it('refuses an archive that inflates out of proportion, before reading a row', async () => {
    const bomb = await bombXlsx(500_000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const error = await refusal(fileOf(bomb, 'bomb.xlsx'), {
      maxRows: 10_000_000,
      timeBudgetMs: 60_000,
    });
    expect(error.code).toBe('ERR_IMPORT_ARCHIVE_TOO_LARGE');
    expect(error.extra).toEqual({ limit: 100 });
  });

  it('refuses a sheet it cannot measure within the time budget', async () => {
    const error = await refusal(fileOf(peopleCsv(50_000), 'slow.csv'), {
      maxRows: 1_000_000,
      timeBudgetMs: 1,
    });
    expect(error.code).toBe('ERR_IMPORT_TOO_SLOW');
  });

  it('refuses a file that is not a readable .xlsx', async () => {
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 7)]);
    expect((await refusal(fileOf(broken, 'broken.xlsx'))).code).toBe('ERR_VALIDATION');
  });
});
