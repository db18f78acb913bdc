import { and, asc, eq } from 'drizzle-orm';
import { unwrapHandle } from '../db/client';
import { settings, users } from '../db/schema';
import type { DbHandle } from '../db/tenant';

/**
 * A setting of the platform itself, kept by the super user's company (for example
 * 'userCreation', which opens or closes public sign-up).
 */
export async function platformSetting(handle: DbHandle, key: string): Promise<string | undefined> {
  const [row] = await unwrapHandle(handle)
    .select({ value: settings.value })
    .from(users)
    .innerJoin(settings, and(eq(settings.companyId, users.companyId), eq(settings.key, key)))
    .where(eq(users.super, true))
    .orderBy(asc(users.id))
    .limit(1);
  return row?.value;
}
