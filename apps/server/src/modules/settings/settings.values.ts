import type { PlainSettingKey } from '@atendi/shared';
import type { TenantDb } from '../../db/tenant';
import { saveSetting, seedDefaultSettings, settingValues } from './settings.repository';

/**
 * How the rest of the server reads and writes a company's settings; the settings module's
 * repository stays its own. Values are the stored ones or their defaults; the secrets (the
 * payment key and the like), sealed at rest, are not among what others may read.
 */
type ReadableKey = PlainSettingKey;

/** One setting of the company: the stored value, or its default. */
export async function companySetting(db: TenantDb, key: ReadableKey): Promise<string> {
  return (await settingValues(db, [key]))[key];
}

/** Several settings of the company in one query, each the stored value or its default. */
export function companySettings<K extends ReadableKey>(db: TenantDb, keys: readonly K[]) {
  return settingValues(db, keys);
}

/** A new company's settings: every default, then what its creator chose. */
export async function startCompanySettings(
  db: TenantDb,
  chosen: Partial<Record<ReadableKey, string>> = {},
): Promise<void> {
  await seedDefaultSettings(db);
  for (const [key, value] of Object.entries(chosen)) await saveSetting(db, key, value);
}

/** Stores one setting that another module decides (a company's plan switches campaigns). */
export function storeCompanySetting(db: TenantDb, key: ReadableKey, value: string) {
  return saveSetting(db, key, value);
}
