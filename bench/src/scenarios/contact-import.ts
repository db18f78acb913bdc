import { performance } from 'node:perf_hooks';
import type { BenchServer } from '../environment';
import { rssSampler } from '../environment';
import { round } from '../stats';
import { call, login, seedCompany } from './messaging';

export interface ContactImportOptions {
  /** Rows of the spreadsheet (a header, then one contact per row). */
  rows: number;
}

/**
 * Import of a large spreadsheet into a contact list through POST /contact-lists/:id/upload (a
 * CSV sheet of name, number and email): rows per second end to end, and the server's RSS while
 * it reads, normalises and writes them in batches.
 */
export async function contactImportScenario(server: BenchServer, options: ContactImportOptions) {
  const company = await seedCompany(server, 0, 'contact-import');
  await server.pool.query(
    'update plans set use_campaigns = true where id = (select plan_id from companies where id = $1)',
    [company.companyId],
  );
  const token = await login(server, company.adminEmail);
  const { body: list } = await call(server, token, 'POST', '/contact-lists', {
    name: 'Importação em massa',
  });
  const lines = ['nome,numero,email'];
  for (let row = 1; row <= options.rows; row += 1) {
    const digits = String(row).padStart(8, '0');
    lines.push(`Cliente ${row},55219${digits},cliente${row}@example.com`);
  }
  const sheet = Buffer.from(`${lines.join('\n')}\n`);

  const rssBeforeMiB = server.rssMiB();
  const sampler = rssSampler(server.rssMiB, 100);
  const form = new FormData();
  form.append('file', new Blob([sheet], { type: 'text/csv' }), 'contatos.csv');
  const start = performance.now();
  const response = await fetch(`${server.url}/contact-lists/${list.id}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const seconds = (performance.now() - start) / 1000;
  sampler.stop();
  const text = await response.text();
  if (!response.ok) throw new Error(`upload: ${response.status} ${text}`);
  const summary = JSON.parse(text) as { rows: number; imported: number; invalid: number };
  const { rows: stored } = await server.pool.query<{ n: number }>(
    'select count(*)::int as n from contact_list_items where company_id = $1 and contact_list_id = $2',
    [company.companyId, list.id],
  );
  return {
    rows: options.rows,
    fileMiB: round(sheet.length / 1024 / 1024),
    imported: summary.imported,
    invalid: summary.invalid,
    stored: stored[0]!.n,
    seconds: round(seconds),
    rowsPerSecond: round(summary.rows / Math.max(seconds, 0.001)),
    rssBeforeMiB: Math.round(rssBeforeMiB),
    rssPeakMiB: Math.round(sampler.peak()),
  };
}
