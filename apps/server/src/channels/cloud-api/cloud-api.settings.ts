import { type CloudApiSettings, cloudApiSettingsSchema } from '@atendi/shared';
import { and, eq, sql } from 'drizzle-orm';
import { connectionAuthKeys } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { AppError } from '../../platform/errors';

/** The connection's Cloud API secrets live with its other session keys, one row. */
export const SETTINGS_KEY = 'cloud-api:settings';

/** Stored settings as the provider uses them; anything incomplete counts as none. */
export function parseCloudApiSettings(value: unknown): CloudApiSettings | undefined {
  const parsed = cloudApiSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export async function loadCloudApiSettings(
  db: TenantDb,
  connectionId: number,
): Promise<CloudApiSettings | undefined> {
  const [row] = await db
    .select({ value: connectionAuthKeys.value })
    .from(
      connectionAuthKeys,
      and(
        eq(connectionAuthKeys.connectionId, connectionId),
        eq(connectionAuthKeys.key, SETTINGS_KEY),
      ),
    );
  return parseCloudApiSettings(row?.value);
}

/**
 * Stores what changed over what is stored. A cloud-api connection needs every setting, so an
 * incomplete result is refused (and the caller's transaction rolls back).
 */
export async function saveCloudApiSettings(
  db: TenantDb,
  connectionId: number,
  changes: Partial<CloudApiSettings>,
): Promise<void> {
  const current = await loadCloudApiSettings(db, connectionId);
  const merged = cloudApiSettingsSchema.safeParse({ ...current, ...changes });
  if (!merged.success) {
    throw new AppError('ERR_VALIDATION', 400, {
      fields: merged.error.issues.map((issue) => ({
        path: ['body', 'cloudApi', ...issue.path].join('.'),
        message: issue.message,
      })),
    });
  }
  await db
    .insert(connectionAuthKeys, { connectionId, key: SETTINGS_KEY, value: merged.data })
    .onConflictDoUpdate({
      target: [connectionAuthKeys.connectionId, connectionAuthKeys.key],
      set: { value: sql`excluded.value`, updatedAt: sql`now()` },
    });
}
