import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { unwrapHandle } from '../../db/client';
import { passwordResetCodes, users } from '../../db/schema';
import type { DbHandle } from '../../db/tenant';

/**
 * The reset codes, looked up by user across companies (a reset starts from an e-mail alone, as
 * sign-in does). Only keyed hashes are stored.
 */
export class PasswordResetStore {
  constructor(private readonly handle: DbHandle) {}

  get #db() {
    return unwrapHandle(this.handle);
  }

  /** Replaces the user's code with a new one. */
  async issue(userId: number, codeHash: string, expiresAt: Date): Promise<void> {
    await this.#db
      .insert(passwordResetCodes)
      .values({ userId, codeHash, expiresAt })
      .onConflictDoUpdate({
        target: passwordResetCodes.userId,
        set: { codeHash, expiresAt, attempts: 0, usedAt: null, createdAt: new Date() },
      });
  }

  /**
   * Counts one try of the user's live code (unspent, unexpired, under `maxAttempts` tries) and
   * answers its hash; undefined when there is no live code to try.
   */
  async tryCode(userId: number, maxAttempts: number): Promise<{ codeHash: string } | undefined> {
    const [row] = await this.#db
      .update(passwordResetCodes)
      .set({ attempts: sql`${passwordResetCodes.attempts} + 1` })
      .where(
        and(
          eq(passwordResetCodes.userId, userId),
          isNull(passwordResetCodes.usedAt),
          gt(passwordResetCodes.expiresAt, new Date()),
          lt(passwordResetCodes.attempts, maxAttempts),
        ),
      )
      .returning({ codeHash: passwordResetCodes.codeHash });
    return row;
  }

  /**
   * Spends the code (once: of two requests with the right code only one wins) and sets the new
   * password, in one transaction. Answers whether this call spent it.
   */
  async spend(userId: number, codeHash: string, passwordHash: string): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const spent = await tx
        .update(passwordResetCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(passwordResetCodes.userId, userId),
            eq(passwordResetCodes.codeHash, codeHash),
            isNull(passwordResetCodes.usedAt),
          ),
        )
        .returning({ id: passwordResetCodes.id });
      if (spent.length === 0) return false;
      await tx
        .update(users)
        .set({ passwordHash, updatedAt: new Date() })
        .where(eq(users.id, userId));
      return true;
    });
  }
}
