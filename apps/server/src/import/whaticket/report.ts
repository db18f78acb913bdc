/** What the import did with each source table, kept as it runs and printed and written at the end. */

export interface TableReport {
  source: string;
  target: string;
  read: number;
  imported: number;
  /** Imported by an earlier run (found in the id map): not written again. */
  already: number;
  /** Rows that became an existing row (same name, same person), by why. */
  merged: Record<string, number>;
  skipped: Record<string, number>;
  /** Rows imported with a value mended, by what was mended. */
  mended: Record<string, number>;
  /** Source fields with no place in our model, with how many rows had a value in them. */
  dropped: Record<string, number>;
  seconds?: number;
}

export interface ImportReport {
  source: string;
  target: string;
  dryRun: boolean;
  startedAt: string;
  finishedAt?: string;
  seconds?: number;
  /** The importing process's largest resident memory (RSS) in MiB, at the end of the run. */
  peakRssMiB?: number;
  /** Migrations the source ran after 6.0.0's last (a fork): their columns are not read. */
  laterMigrations: string[];
  tables: TableReport[];
  /** Source tables this version does not import yet, with their row counts. */
  notImported: { table: string; rows: number; why: string }[];
  notes: string[];
}

export function tableReport(source: string, target: string): TableReport {
  return {
    source,
    target,
    read: 0,
    imported: 0,
    already: 0,
    merged: {},
    skipped: {},
    mended: {},
    dropped: {},
  };
}

export const count = (bucket: Record<string, number>, reason: string, n = 1) => {
  if (n) bucket[reason] = (bucket[reason] ?? 0) + n;
};

const list = (bucket: Record<string, number>) =>
  Object.entries(bucket)
    .map(([reason, n]) => `${n} ${reason}`)
    .join('; ');

/** The report as Markdown: a table per source table, then what is not imported. */
export function formatReport(report: ImportReport): string {
  const lines = [
    `# Whaticket import${report.dryRun ? ' (dry run: nothing was written)' : ''}`,
    '',
    `From ${report.source} into ${report.target}, ${report.startedAt} to ${report.finishedAt ?? '(unfinished)'}${report.seconds === undefined ? '' : ` (${report.seconds} s)`}${report.peakRssMiB === undefined ? '' : `; the importing process peaked at ${report.peakRssMiB} MiB of memory`}.`,
    '',
    `| source table | our table | read | ${report.dryRun ? 'would import' : 'imported'} | earlier run | merged | skipped | mended | fields with no place here | seconds |`,
    '| --- | --- | ---: | ---: | ---: | --- | --- | --- | --- | ---: |',
    ...report.tables.map(
      (t) =>
        `| ${t.source} | ${t.target} | ${t.read} | ${t.imported} | ${t.already} | ${list(t.merged)} | ${list(t.skipped)} | ${list(t.mended)} | ${list(t.dropped)} | ${t.seconds ?? ''} |`,
    ),
    '',
  ];
  if (report.notImported.length) {
    lines.push('## Not imported yet', '', '| source table | rows | why |', '| --- | ---: | --- |');
    for (const t of report.notImported) lines.push(`| ${t.table} | ${t.rows} | ${t.why} |`);
    lines.push('');
  }
  if (report.laterMigrations.length) {
    lines.push(
      `Migrations after 6.0.0 (their columns were not read): ${report.laterMigrations.join(', ')}.`,
      '',
    );
  }
  for (const note of report.notes) lines.push(`- ${note}`);
  return `${lines.join('\n')}\n`;
}
