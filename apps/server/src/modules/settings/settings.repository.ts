import { DEFAULT_SETTINGS, type PlainSettingKey } from '@atendi/shared';
import { asc, eq, inArray } from 'drizzle-orm';
import { settings } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';

const keyValue = { key: settings.key, value: settings.value };

/** The settings a company starts with. */
export async function seedDefaultSettings(db: TenantDb): Promise<void> {
  await db
    .insert(
      settings,
      Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })),
    )
    .onConflictDoNothing();
}

/** The settings the company has stored, by key. */
export function storedSettings(db: TenantDb) {
  return db.select(keyValue).from(settings).orderBy(asc(settings.key));
}

export async function settingByKey(db: TenantDb, key: string) {
  const [row] = await db.select(keyValue).from(settings, eq(settings.key, key));
  return row;
}

/** Stores a setting, whether the company had it or not. */
export async function saveSetting(db: TenantDb, key: string, value: string) {
  await db.insert(settings, { key, value }).onConflictDoUpdate({
    target: [settings.companyId, settings.key],
    set: { value, updatedAt: new Date() },
  });
}

/** The company's values of `keys`, each the stored one or its default: one query. */
export async function settingValues<K extends PlainSettingKey>(
  db: TenantDb,
  keys: readonly K[],
): Promise<Record<K, string>> {
  const rows = await db.select(keyValue).from(settings, inArray(settings.key, [...keys]));
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return Object.fromEntries(
    keys.map((key) => [key, stored.get(key) ?? DEFAULT_SETTINGS[key]]),
  ) as Record<K, string>;
}
