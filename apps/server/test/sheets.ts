import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

/** Sheets made for the import tests: people by exceljs' streaming writer, a bomb by jszip. */

const folder = () => mkdtempSync(join(tmpdir(), 'atendi-sheets-'));

/** An .xlsx of a header and `rows` people, numbers 55119xxxxxxxx. */
export async function peopleXlsx(rows: number, first = 0): Promise<Buffer> {
  const path = join(folder(), 'people.xlsx');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Contatos');
  sheet.addRow(['nome', 'numero', 'email']).commit();
  for (let i = 0; i < rows; i++) {
    sheet
      .addRow([`Pessoa ${first + i}`, `55119${String(first + i).padStart(8, '0')}`, ''])
      .commit();
  }
  sheet.commit();
  await workbook.commit();
  return readFileSync(path);
}

/** A CSV of a header and `rows` people. */
export function peopleCsv(rows: number, first = 0): Buffer {
  const lines = ['nome;numero;email'];
  for (let i = 0; i < rows; i++)
    lines.push(`Pessoa ${first + i};55119${String(first + i).padStart(8, '0')};`);
  return Buffer.from(lines.join('\n'));
}

/**
 * A zip-bomb-like .xlsx: a valid workbook whose one sheet is `rows` identical rows, which
 * deflate compresses about a thousand times (a few hundred KB on the wire, hundreds of MB
 * inflated), the shape of the 651 KB sheet that expanded to 2,000,000 rows.
 */
export async function bombXlsx(rows: number): Promise<Buffer> {
  const row = '<row><c t="inlineStr"><is><t>5511900000000</t></is></c></row>';
  const sheet = Buffer.concat([
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>numero</t></is></c></row>',
    ),
    Buffer.alloc(row.length * rows, row),
    Buffer.from('</sheetData></worksheet>'),
  ]);
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  );
  zip.file(
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Plan1" sheetId="1" r:id="rId1"/></sheets></workbook>',
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  );
  zip.file('xl/worksheets/sheet1.xml', sheet);
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    compressionOptions: { level: 9 },
  });
}

/** Writes a buffer to a file of its own, for the reader. */
export function fileOf(content: Buffer, name: string): string {
  const path = join(folder(), name);
  writeFileSync(path, content);
  return path;
}
