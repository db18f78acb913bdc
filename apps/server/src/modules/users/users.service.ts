import {
  DEFAULT_PAGE_SIZE,
  hasRole,
  type ListQuery,
  USER_ONLINE_WINDOW_MS,
  type User,
  type UserCreate,
  type UserUpdate,
  userListItemSchema,
} from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { globalDb } from '../../db/global';
import { type TenantDb, tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { emailTaken } from '../../platform/auth/credentials';
import { hashPassword } from '../../platform/auth/passwords';
import { AppError, forbidden } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { page, sliceMore } from '../../platform/routes';
import { withinPlanLimit } from '../plans/plans.limits';
import { usersRepository as repo } from './users.repository';

/**
 * A new company's first admin, in the transaction that creates the company (sign-up, the super
 * user, the seed); answers the user's id.
 */
export function insertFirstAdmin(
  tx: TenantDb,
  admin: { name: string; email: string; passwordHash: string; super: boolean },
): Promise<number> {
  return repo.insert(tx, { ...admin, profile: 'admin', allTicket: 'enabled' });
}

const ADMIN_ONLY_FIELDS = ['profile', 'queueIds', 'whatsappId', 'allTicket'] as const;

export class UsersService {
  constructor(private readonly platform: Platform) {}

  async list(ctx: RequestContext, query: ListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await repo.page(
      tenantDb(ctx),
      query.searchParam?.trim(),
      limit,
      offset,
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    const whole = hasRole(ctx, 'admin');
    return {
      users: whole ? pageRows : pageRows.map((user) => userListItemSchema.parse(user)),
      count,
      hasMore,
    };
  }

  listAll(ctx: RequestContext) {
    return repo.all(tenantDb(ctx));
  }

  async get(ctx: RequestContext, id: number): Promise<User> {
    if (id !== ctx.userId && !hasRole(ctx, 'admin')) throw forbidden();
    const user = await repo.byId(tenantDb(ctx), id);
    if (!user) throw new AppError('ERR_NO_USER_FOUND', 404);
    return user;
  }

  async create(ctx: RequestContext, data: UserCreate): Promise<User> {
    const db = tenantDb(ctx);
    await this.#checkReferences(db, data);
    if (await emailTaken(this.platform.db, data.email)) {
      throw new AppError('ERR_DUPLICATED_EMAIL', 409);
    }
    const passwordHash = await hashPassword(data.password);
    const id = await this.#unique(() =>
      globalDb(ctx).transaction(async (global, tenantOf) => {
        const tx = tenantOf(ctx.companyId);
        if (!(await withinPlanLimit(global, ctx.companyId, 'users', () => repo.count(tx)))) {
          throw new AppError('ERR_USER_LIMIT_REACHED', 400);
        }
        const id = await repo.insert(tx, {
          name: data.name,
          email: data.email,
          passwordHash,
          profile: data.profile ?? 'user',
          allTicket: data.allTicket ?? 'desabled',
          whatsappId: data.whatsappId ?? null,
        });
        await repo.setQueues(tx, id, data.queueIds ?? []);
        return id;
      }),
    );
    const user = (await repo.byId(db, id))!;
    this.platform.events.emit('user.saved', { companyId: ctx.companyId, action: 'create', user });
    return user;
  }

  /**
   * Admins edit anyone in their company; a user edits only itself and never its profile,
   * queues, connection or ticket visibility. The company never changes here.
   */
  async update(ctx: RequestContext, id: number, data: UserUpdate): Promise<User> {
    const admin = hasRole(ctx, 'admin');
    if (id !== ctx.userId && !admin) throw forbidden();
    const db = tenantDb(ctx);
    const current = await repo.byId(db, id);
    if (!current) throw new AppError('ERR_NO_USER_FOUND', 404);
    // Whoever sets the super user's email or password owns the platform.
    if (current.super && !ctx.super) throw forbidden();
    if (!admin) {
      const currentQueueIds = current.queues.map((queue) => queue.id).sort();
      const changes = {
        profile: data.profile !== undefined && data.profile !== current.profile,
        allTicket: data.allTicket !== undefined && data.allTicket !== current.allTicket,
        whatsappId: data.whatsappId !== undefined && data.whatsappId !== current.whatsappId,
        queueIds:
          data.queueIds !== undefined &&
          [...new Set(data.queueIds)].sort().join() !== currentQueueIds.join(),
      };
      if (ADMIN_ONLY_FIELDS.some((field) => changes[field])) throw forbidden();
    }
    await this.#checkReferences(db, data);
    if (data.email && (await emailTaken(this.platform.db, data.email, id))) {
      throw new AppError('ERR_DUPLICATED_EMAIL', 409);
    }
    const passwordHash = data.password ? await hashPassword(data.password) : undefined;
    await this.#unique(() =>
      db.transaction(async (tx) => {
        await repo.update(tx, id, {
          name: data.name,
          email: data.email,
          passwordHash,
          ...(admin
            ? { profile: data.profile, allTicket: data.allTicket, whatsappId: data.whatsappId }
            : {}),
        });
        if (admin && data.queueIds) await repo.setQueues(tx, id, data.queueIds);
      }),
    );
    // A new password ends the user's other sessions; the caller keeps the one it is using.
    if (passwordHash) await this.platform.sessions.revokeUser(id, ctx.sessionId);
    const user = (await repo.byId(db, id))!;
    this.platform.events.emit('user.saved', { companyId: ctx.companyId, action: 'update', user });
    return user;
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    if (id === ctx.userId) throw new AppError('ERR_CANNOT_DELETE_SELF', 400);
    const db = tenantDb(ctx);
    const target = await repo.byId(db, id);
    if (!target) throw new AppError('ERR_NO_USER_FOUND', 404);
    if (target.super && !ctx.super) throw forbidden();
    const deleted = await db.transaction(async (tx) => {
      // The user's live tickets go back to the waiting line instead of losing their owner.
      await repo.releaseOpenTickets(tx, id);
      return repo.delete(tx, id);
    });
    if (!deleted) throw new AppError('ERR_NO_USER_FOUND', 404);
    await this.platform.sessions.revokeUser(id);
    this.platform.events.emit('user.deleted', { companyId: ctx.companyId, userId: id });
  }

  /** Presence from the realtime channel: connected or pinging is online. Announces changes only. */
  async markSeen(ctx: RequestContext, online: boolean): Promise<void> {
    const db = tenantDb(ctx);
    const previous = await repo.lastSeenOf(db, ctx.userId);
    if (!previous) return;
    await repo.setLastSeen(db, ctx.userId, online ? new Date() : null);
    const wasOnline =
      previous.lastSeenAt !== null &&
      Date.now() - previous.lastSeenAt.getTime() < USER_ONLINE_WINDOW_MS;
    if (wasOnline !== online) {
      this.platform.events.emit('user.presence', {
        companyId: ctx.companyId,
        userId: ctx.userId,
        online,
      });
    }
  }

  async #checkReferences(db: TenantDb, data: Pick<UserUpdate, 'queueIds' | 'whatsappId'>) {
    const queueIds = [...new Set(data.queueIds ?? [])];
    if ((await repo.countQueues(db, queueIds)) !== queueIds.length) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.queueIds', message: 'Unknown queue' }],
      });
    }
    if (data.whatsappId && !(await repo.connectionExists(db, data.whatsappId))) {
      throw new AppError('ERR_NO_WAPP_FOUND', 404);
    }
  }

  async #unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key'))
        throw new AppError('ERR_DUPLICATED_EMAIL', 409);
      throw error;
    }
  }
}
