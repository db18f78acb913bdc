import type {
  Queue,
  QueueOption,
  QueueOptionCreate,
  QueueOptionListQuery,
  QueueOptionUpdate,
} from '@atendi/shared';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import {
  deleteOption,
  insertOption,
  lockQueue,
  optionById,
  optionsOfLevel,
  presentOption,
  queueExists,
  siblingTakes,
  updateOption,
} from './queue-options.repository';

const notFound = () => new AppError('ERR_NOT_FOUND', 404);

const invalid = (field: string, message: string) =>
  new AppError('ERR_VALIDATION', 400, { fields: [{ path: `body.${field}`, message }] });

const duplicated = () =>
  new AppError('ERR_VALIDATION', 409, { fields: [{ path: 'body.option', message: 'Duplicated' }] });

/** A queue's bot menu: a tree of numbered options, edited one option at a time. */
export class QueueOptionsService {
  constructor(
    private readonly platform: Pick<Platform, 'events'>,
    /** The queue as its own module reads it (GET /queue/:id). */
    private readonly queueOf: (ctx: RequestContext, id: number) => Promise<Queue>,
  ) {}

  /** One level of the menu (the first when no parent is named), each with its children. */
  async list(ctx: RequestContext, query: QueueOptionListQuery): Promise<QueueOption[]> {
    const db = tenantDb(ctx);
    const parentId = query.parentId ?? null;
    if (!(await queueExists(db, query.queueId))) throw notFound();
    if (parentId !== null) {
      const parent = await optionById(db, parentId);
      if (parent?.queueId !== query.queueId) throw notFound();
    }
    return optionsOfLevel(db, query.queueId, parentId);
  }

  async create(ctx: RequestContext, data: QueueOptionCreate): Promise<QueueOption> {
    const parentId = data.parentId ?? null;
    const option = await tenantDb(ctx).transaction(async (tx) => {
      if (!(await lockQueue(tx, data.queueId))) throw invalid('queueId', 'Not found');
      if (parentId !== null) {
        const parent = await optionById(tx, parentId);
        if (!parent) throw invalid('parentId', 'Not found');
        if (parent.queueId !== data.queueId) throw invalid('parentId', 'Another queue');
      }
      if (await siblingTakes(tx, { queueId: data.queueId, parentId }, data.option)) {
        throw duplicated();
      }
      const row = await insertOption(tx, {
        queueId: data.queueId,
        parentId,
        title: data.title,
        message: data.message ?? '',
        option: data.option,
      });
      return presentOption(tx, row);
    });
    await this.#announce(ctx, option.queueId);
    return option;
  }

  /** Changes the texts and the number; the option stays in its queue and under its parent. */
  async update(ctx: RequestContext, id: number, data: QueueOptionUpdate): Promise<QueueOption> {
    const option = await tenantDb(ctx).transaction(async (tx) => {
      const current = await optionById(tx, id);
      if (!current) throw notFound();
      if (data.option !== undefined) {
        await lockQueue(tx, current.queueId);
        if (await siblingTakes(tx, current, data.option, id)) throw duplicated();
      }
      const row = await updateOption(tx, id, {
        title: data.title,
        message: data.message,
        option: data.option,
      });
      if (!row) throw notFound();
      return presentOption(tx, row);
    });
    await this.#announce(ctx, option.queueId);
    return option;
  }

  /** Removes the option and every option under it. */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    const queueId = await deleteOption(tenantDb(ctx), id);
    if (queueId === undefined) throw notFound();
    await this.#announce(ctx, queueId);
  }

  /** The menu is part of the queue: open queue screens hear it changed, with the whole queue. */
  async #announce(ctx: RequestContext, queueId: number) {
    const queue = await this.queueOf(ctx, queueId);
    this.platform.events.emit('queue.saved', { companyId: ctx.companyId, action: 'update', queue });
  }
}
