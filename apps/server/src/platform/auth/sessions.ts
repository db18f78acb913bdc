import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authRefreshTokens, authSessions } from '../../db/schema';
import { hashToken, newRefreshToken } from './tokens';

/** Two tabs refreshing with the same cookie at once is not theft: allow it for a few seconds. */
const REUSE_GRACE_MS = 10_000;

export interface IssuedSession {
  sessionId: string;
  userId: number;
  companyId: number;
  refreshToken: string;
}

export type RotateResult = IssuedSession | { failure: 'invalid' | 'reused' };

export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly ttlDays: number,
    /** Told which sessions ended, so their open sockets can be closed. */
    private readonly onRevoked: (revoked: {
      companyId: number;
      userId: number;
      sessionIds: string[];
    }) => void = () => {},
  ) {}

  async create(userId: number, companyId: number): Promise<IssuedSession> {
    const expiresAt = new Date(Date.now() + this.ttlDays * 86_400_000);
    const refreshToken = newRefreshToken();
    const sessionId = await this.db.transaction(async (tx) => {
      const [session] = await tx
        .insert(authSessions)
        .values({ userId, companyId, expiresAt })
        .returning({ id: authSessions.id });
      await tx
        .insert(authRefreshTokens)
        .values({ tokenHash: hashToken(refreshToken), sessionId: session!.id });
      return session!.id;
    });
    return { sessionId, userId, companyId, refreshToken };
  }

  /**
   * Trades a refresh token for a new one in the same session. A token used before (outside the
   * grace window) means it was copied: the whole session is revoked.
   */
  async rotate(refreshToken: string): Promise<RotateResult> {
    return this.db.transaction(async (tx) => {
      const [found] = await tx
        .select({
          tokenHash: authRefreshTokens.tokenHash,
          usedAt: authRefreshTokens.usedAt,
          sessionId: authSessions.id,
          userId: authSessions.userId,
          companyId: authSessions.companyId,
          revokedAt: authSessions.revokedAt,
          expiresAt: authSessions.expiresAt,
        })
        .from(authRefreshTokens)
        .innerJoin(authSessions, eq(authSessions.id, authRefreshTokens.sessionId))
        .where(eq(authRefreshTokens.tokenHash, hashToken(refreshToken)))
        .for('update');
      if (!found || found.revokedAt || found.expiresAt.getTime() <= Date.now()) {
        return { failure: 'invalid' as const };
      }
      if (found.usedAt && Date.now() - found.usedAt.getTime() > REUSE_GRACE_MS) {
        await tx
          .update(authSessions)
          .set({ revokedAt: new Date() })
          .where(eq(authSessions.id, found.sessionId));
        return { failure: 'reused' as const };
      }
      if (!found.usedAt) {
        await tx
          .update(authRefreshTokens)
          .set({ usedAt: new Date() })
          .where(eq(authRefreshTokens.tokenHash, found.tokenHash));
      }
      const next = newRefreshToken();
      await tx
        .insert(authRefreshTokens)
        .values({ tokenHash: hashToken(next), sessionId: found.sessionId });
      return {
        sessionId: found.sessionId,
        userId: found.userId,
        companyId: found.companyId,
        refreshToken: next,
      };
    });
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
  }

  /** Ends the session a refresh token belongs to (sign-out with only the cookie). */
  async revokeByRefresh(refreshToken: string): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(
        sql`${authSessions.id} = (select ${authRefreshTokens.sessionId} from ${authRefreshTokens}
          where ${authRefreshTokens.tokenHash} = ${hashToken(refreshToken)})`,
      );
  }

  /** Ends every session of a user (password change, deletion, or a new sign-in elsewhere). */
  async revokeUser(userId: number, exceptSessionId?: string): Promise<void> {
    const revoked = await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(authSessions.userId, userId),
          isNull(authSessions.revokedAt),
          exceptSessionId ? ne(authSessions.id, exceptSessionId) : undefined,
        ),
      )
      .returning({ id: authSessions.id, companyId: authSessions.companyId });
    if (revoked.length > 0) {
      this.onRevoked({
        companyId: revoked[0]!.companyId,
        userId,
        sessionIds: revoked.map((row) => row.id),
      });
    }
  }

  /** Drops sessions that ended more than a day ago. */
  async prune(): Promise<void> {
    await this.db
      .delete(authSessions)
      .where(
        sql`coalesce(${authSessions.revokedAt}, ${authSessions.expiresAt}) < now() - interval '1 day'`,
      );
  }
}
