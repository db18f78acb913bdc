import { DUE_DATE_WARNING_DAYS, type Login, type Session, type SessionUser } from '@atendi/shared';
import type { RequestContext } from '../../platform/auth/context';
import {
  companyStanding,
  findLoginUser,
  upgradePasswordHash,
} from '../../platform/auth/credentials';
import {
  decoyHash,
  hashPassword,
  isOutdatedHash,
  verifyPassword,
} from '../../platform/auth/passwords';
import type { IssuedSession } from '../../platform/auth/sessions';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { loadSessionUser } from './auth.repository';

const EMAIL_FAILURES_MAX = 10;
const EMAIL_FAILURES_WINDOW = 15 * 60_000;

export interface SignedIn {
  session: Session;
  refreshToken: string;
}

const DAY = 86_400_000;

/** Whole days from today (UTC) to a YYYY-MM-DD due date; negative once it has passed. */
export function daysUntil(dueDate: string, now = new Date()): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${dueDate}T00:00:00Z`) - today) / DAY);
}

/**
 * Sign-in needs a company that is active and at most `graceDays` past its due date (the super
 * user always may): within the grace its admin can still sign in and pay.
 */
function assertCompanyActive(
  user: {
    super: boolean;
    dueDate: string | null;
    companyStatus: boolean;
  },
  graceDays: number,
) {
  if (user.super) return;
  if (!user.companyStatus) throw new AppError('ERR_COMPANY_INACTIVE', 401);
  if (user.dueDate && daysUntil(user.dueDate) < -graceDays) {
    const [year, month, day] = user.dueDate.split('-');
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED', 401, {
      dueDate: user.dueDate,
      message: `Opss! Sua assinatura venceu ${day}/${month}/${year}. Entre em contato com o Suporte para mais informações!`,
    });
  }
}

export class AuthService {
  constructor(private readonly platform: Platform) {}

  async login(credentials: Login): Promise<SignedIn> {
    const { limiter, db, sessions } = this.platform;
    const email = credentials.email.trim().toLowerCase();
    // Attempts per address are limited on the route; failures per e-mail here.
    await limiter.consume({
      key: `login:email-failures:${email}`,
      max: EMAIL_FAILURES_MAX,
      windowMs: EMAIL_FAILURES_WINDOW,
    });
    const user = await findLoginUser(db, email);
    const valid = user
      ? await verifyPassword(user.passwordHash, credentials.password)
      : await verifyPassword(await decoyHash(), credentials.password);
    if (!user || !valid) throw new AppError('ERR_INVALID_CREDENTIALS', 401);
    await limiter.reset(`login:email-failures:${email}`);
    // A bcrypt hash moved from a Whaticket database becomes ours now that we know the password.
    if (isOutdatedHash(user.passwordHash)) {
      await upgradePasswordHash(
        db,
        user.id,
        user.passwordHash,
        await hashPassword(credentials.password),
      );
    }

    assertCompanyActive(user, this.platform.config.BILLING_GRACE_DAYS);

    // One live session per user: the others are told ('login elsewhere'), then ended.
    const issued = await sessions.create(user.id, user.companyId);
    this.platform.events.emit('auth.signedIn', {
      companyId: user.companyId,
      userId: user.id,
      sessionId: issued.sessionId,
    });
    await sessions.revokeUser(user.id, issued.sessionId);
    return this.#answer(issued);
  }

  /** A refresh is refused, and its session ended, once the company may no longer sign in. */
  async refresh(refreshToken: string | undefined): Promise<SignedIn> {
    if (!refreshToken) throw new AppError('ERR_SESSION_EXPIRED', 401);
    const { sessions, db } = this.platform;
    const rotated = await sessions.rotate(refreshToken);
    if ('failure' in rotated) throw new AppError('ERR_SESSION_EXPIRED', 401);
    const standing = await companyStanding(db, rotated.userId);
    try {
      if (!standing) throw new AppError('ERR_SESSION_EXPIRED', 401);
      assertCompanyActive(standing, this.platform.config.BILLING_GRACE_DAYS);
    } catch (error) {
      await sessions.revoke(rotated.sessionId);
      throw error;
    }
    return this.#answer(rotated);
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.platform.sessions.revoke(sessionId);
  }

  logoutByRefresh(refreshToken: string): Promise<void> {
    return this.platform.sessions.revokeByRefresh(refreshToken);
  }

  async me(ctx: RequestContext): Promise<SessionUser> {
    const user = await loadSessionUser(ctx, ctx.userId);
    if (!user) throw new AppError('ERR_SESSION_EXPIRED', 401);
    return user;
  }

  async #answer(issued: IssuedSession): Promise<SignedIn> {
    const scope = { companyId: issued.companyId, db: this.platform.db };
    const user = await loadSessionUser(scope, issued.userId);
    if (!user) throw new AppError('ERR_SESSION_EXPIRED', 401);
    const token = await this.platform.tokens.sign({
      sub: String(user.id),
      cid: user.companyId,
      sid: issued.sessionId,
    });
    const days = user.company.dueDate ? daysUntil(user.company.dueDate) : null;
    return {
      session: {
        token,
        user,
        daysToDueDate: days,
        dueDateWarning: days !== null && days < DUE_DATE_WARNING_DAYS && !user.super,
      },
      refreshToken: issued.refreshToken,
    };
  }
}
