import { hasRole, type Queue, type QueueCreate } from '@atendi/shared';
import { asc, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors';
import { queues } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { isoRequired } from '../../platform/routes';

/** The queue's token is for the company's admins, as a connection's is. */
const present = (row: typeof queues.$inferSelect, admin: boolean): Queue => ({
  id: row.id,
  name: row.name,
  color: row.color,
  greetingMessage: row.greetingMessage,
  complationMessage: row.complationMessage,
  outOfHoursMessage: row.outOfHoursMessage,
  ratingMessage: row.ratingMessage,
  ...(admin ? { token: row.token } : {}),
  orderQueue: row.orderQueue,
  integrationId: row.integrationId,
  promptId: row.promptId,
  schedules: row.schedules,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

function translateUnique(error: unknown): never {
  if (isUniqueViolation(error, 'queues_company_color_key')) {
    throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS', 409);
  }
  if (isUniqueViolation(error, 'queues_company_name_key')) {
    throw new AppError('ERR_VALIDATION', 409, {
      fields: [{ path: 'body.name', message: 'Duplicated' }],
    });
  }
  throw error;
}

export class QueuesService {
  constructor(private readonly platform: Platform) {}

  async list(ctx: RequestContext): Promise<Queue[]> {
    const rows = await tenantDb(ctx)
      .selectFrom(queues)
      .orderBy(asc(queues.orderQueue), asc(queues.name));
    return rows.map((row) => present(row, hasRole(ctx, 'admin')));
  }

  async get(ctx: RequestContext, id: number): Promise<Queue> {
    const [row] = await tenantDb(ctx).selectFrom(queues, eq(queues.id, id));
    if (!row) throw new AppError('ERR_NOT_FOUND', 404);
    return present(row, hasRole(ctx, 'admin'));
  }

  async create(ctx: RequestContext, data: QueueCreate): Promise<Queue> {
    const row = await tenantDb(ctx)
      .insert(queues, data)
      .returning()
      .then((rows) => rows[0]!)
      .catch(translateUnique);
    this.platform.events.emit('queue.saved', {
      companyId: ctx.companyId,
      action: 'create',
      queue: { id: row.id },
    });
    return present(row, hasRole(ctx, 'admin'));
  }

  async update(ctx: RequestContext, id: number, data: Partial<QueueCreate>): Promise<Queue> {
    const [row] = await tenantDb(ctx)
      .update(queues, { ...data, updatedAt: new Date() }, eq(queues.id, id))
      .returning()
      .catch(translateUnique);
    if (!row) throw new AppError('ERR_NOT_FOUND', 404);
    this.platform.events.emit('queue.saved', {
      companyId: ctx.companyId,
      action: 'update',
      queue: { id },
    });
    return present(row, hasRole(ctx, 'admin'));
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const deleted = await tenantDb(ctx)
      .delete(queues, eq(queues.id, id))
      .returning({ id: queues.id });
    if (deleted.length === 0) throw new AppError('ERR_NOT_FOUND', 404);
    this.platform.events.emit('queue.deleted', { companyId: ctx.companyId, queueId: id });
  }
}
