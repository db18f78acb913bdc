import { and, eq, sql } from 'drizzle-orm';
import { unwrapHandle } from '../../db/client';
import { companies, users } from '../../db/schema';
import type { DbHandle } from '../../db/tenant';

/** Sign-in looks a user up by email across companies; the only cross-company read of users. */
export async function findLoginUser(handle: DbHandle, email: string) {
  const [row] = await unwrapHandle(handle)
    .select({
      id: users.id,
      companyId: users.companyId,
      passwordHash: users.passwordHash,
      super: users.super,
      dueDate: companies.dueDate,
      companyStatus: companies.status,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row;
}

/** Whether an email already names a user anywhere (emails sign in, so they are global). */
export async function emailTaken(
  handle: DbHandle,
  email: string,
  exceptUserId?: number,
): Promise<boolean> {
  const rows = await unwrapHandle(handle)
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return rows.length > 0 && rows[0]!.id !== exceptUserId;
}

/** The user's company standing, read again on every token refresh. */
export async function companyStanding(handle: DbHandle, userId: number) {
  const [row] = await unwrapHandle(handle)
    .select({ super: users.super, dueDate: companies.dueDate, companyStatus: companies.status })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  return row;
}

/**
 * Replaces a user's password hash by one of our kind, only while it is still the hash the
 * password was checked against (a password changed meanwhile is not overwritten).
 */
export async function upgradePasswordHash(
  handle: DbHandle,
  userId: number,
  checkedHash: string,
  newHash: string,
): Promise<void> {
  await unwrapHandle(handle)
    .update(users)
    .set({ passwordHash: newHash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, checkedHash)));
}
