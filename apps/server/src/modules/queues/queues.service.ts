import { hasRole, type Queue, type QueueCreate } from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { globalDb } from '../../db/global';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { withinPlanLimit } from '../plans/plans.limits';
import { checkBotReferences } from '../queue-integrations/queue-integrations.references';
import {
  countQueues,
  deleteQueue,
  insertQueue,
  queueById,
  queuesInOrder,
  updateQueue,
} from './queues.repository';

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
    return queuesInOrder(tenantDb(ctx), hasRole(ctx, 'admin'));
  }

  async get(ctx: RequestContext, id: number): Promise<Queue> {
    const queue = await queueById(tenantDb(ctx), id, hasRole(ctx, 'admin'));
    if (!queue) throw new AppError('ERR_NOT_FOUND', 404);
    return queue;
  }

  async create(ctx: RequestContext, data: QueueCreate): Promise<Queue> {
    await checkBotReferences(tenantDb(ctx), data);
    const queue = await globalDb(ctx)
      .transaction(async (global, tenantOf) => {
        const tx = tenantOf(ctx.companyId);
        if (!(await withinPlanLimit(global, ctx.companyId, 'queues', () => countQueues(tx)))) {
          throw new AppError('ERR_NO_PERMISSION', 403);
        }
        return insertQueue(tx, data, hasRole(ctx, 'admin'));
      })
      .catch(translateUnique);
    this.platform.events.emit('queue.saved', { companyId: ctx.companyId, action: 'create', queue });
    return queue;
  }

  async update(ctx: RequestContext, id: number, data: Partial<QueueCreate>): Promise<Queue> {
    await checkBotReferences(tenantDb(ctx), data);
    const queue = await updateQueue(tenantDb(ctx), id, data, hasRole(ctx, 'admin')).catch(
      translateUnique,
    );
    if (!queue) throw new AppError('ERR_NOT_FOUND', 404);
    this.platform.events.emit('queue.saved', { companyId: ctx.companyId, action: 'update', queue });
    return queue;
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    if (!(await deleteQueue(tenantDb(ctx), id))) throw new AppError('ERR_NOT_FOUND', 404);
    this.platform.events.emit('queue.deleted', { companyId: ctx.companyId, queueId: id });
  }
}
