/** CSV files built in the browser: the spec's ';' separator, CRLF lines, a byte order mark. */
export const CSV_SEPARATOR = ';';

/** One CSV cell: quoted when it holds the separator, a quote or a line break; quotes doubled. */
export function csvCell(value: string | null | undefined): string {
  const text = value ?? '';
  if (!/[;"\r\n]/.test(text)) return text;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Header and rows as one CSV text; the byte order mark makes spreadsheets read UTF-8 accents. */
export function csvText(
  header: readonly string[],
  rows: readonly (readonly (string | number | null | undefined)[])[],
) {
  const line = (cells: readonly (string | number | null | undefined)[]) =>
    cells
      .map((value) => csvCell(value === null || value === undefined ? '' : String(value)))
      .join(CSV_SEPARATOR);
  return `\uFEFF${[line(header), ...rows.map(line)].join('\r\n')}\r\n`;
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
