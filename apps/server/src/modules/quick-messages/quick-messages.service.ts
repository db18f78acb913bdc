import {
  can,
  DEFAULT_PAGE_SIZE,
  hasRole,
  MEDIA_UPLOAD_TYPES,
  type QuickMessage,
  type QuickMessageCreate,
  type QuickMessageListQuery,
  type QuickMessageUpdate,
  quickMessageMediaFormSchema,
} from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { isoRequired, page, sliceMore } from '../../platform/routes';
import { forgetStored, type MultipartSource, replaceAttachment } from '../../platform/uploads';
import {
  deleteQuickMessage,
  insertQuickMessage,
  type QuickMessageRow,
  queueExists,
  queueIdsOfUser,
  quickMessageById,
  quickMessagesOf,
  quickMessagesPage,
  readableBy,
  updateQuickMessage,
} from './quick-messages.repository';

type Row = QuickMessageRow;

const notFound = () => new AppError('ERR_NOT_FOUND', 404);

/** The unique indexes decide a clash, so two people saving the same shortcode at once cannot both win. */
function duplicateShortcode(error: unknown): never {
  if (
    isUniqueViolation(error, 'quick_messages_shared_shortcode_key') ||
    isUniqueViolation(error, 'quick_messages_queue_shortcode_key') ||
    isUniqueViolation(error, 'quick_messages_personal_shortcode_key')
  ) {
    throw new AppError('ERR_DUPLICATED_SHORTCODE', 409);
  }
  throw error;
}

/** A queue the company does not have is refused on the field, as any invalid value. */
const unknownQueue = () =>
  new AppError('ERR_VALIDATION', 400, {
    fields: [{ path: 'body.queueId', message: 'No such queue' }],
  });

export class QuickMessagesService {
  constructor(private readonly platform: Pick<Platform, 'storage' | 'events'>) {}

  #announce(
    ctx: RequestContext,
    action: 'create' | 'update',
    record: QuickMessage,
    ownerId: number | null,
    before?: Pick<Row, 'geral' | 'queueId'>,
  ) {
    this.platform.events.emit('quickMessage.saved', {
      companyId: ctx.companyId,
      action,
      record,
      ownerId,
      wasShared: before?.geral ?? false,
      wasQueueId: before?.queueId ?? null,
    });
    return record;
  }

  #present(row: Row): QuickMessage {
    return {
      id: row.id,
      shortcode: row.shortcode,
      message: row.message,
      mediaPath: row.mediaPath ? this.platform.storage.signedPath(row.mediaPath) : null,
      mediaName: row.mediaName,
      isMedia: row.mediaPath !== null,
      geral: row.geral,
      queueId: row.queueId,
      userId: row.userId,
      createdAt: isoRequired(row.createdAt),
      updatedAt: isoRequired(row.updatedAt),
    };
  }

  async list(ctx: RequestContext, query: QuickMessageListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const db = tenantDb(ctx);
    const user = query.userId
      ? { userId: query.userId, queueIds: await queueIdsOfUser(db, query.userId) }
      : undefined;
    const { rows, count } = await quickMessagesPage(
      db,
      ctx,
      { user, search: query.searchParam?.trim() },
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { records: pageRows.map((row) => this.#present(row)), count, hasMore };
  }

  /** For the '/' picker of the message input: shared ones, the caller's queues' and its own. */
  async listAll(ctx: RequestContext): Promise<QuickMessage[]> {
    const rows = await quickMessagesOf(tenantDb(ctx), ctx);
    return rows.map((row) => this.#present(row));
  }

  async get(ctx: RequestContext, id: number): Promise<QuickMessage> {
    return this.#present(await this.#readable(ctx, id));
  }

  /** A queue's reply is the queue's, not the whole company's: naming a queue makes it not 'geral'. */
  async #scope(
    ctx: RequestContext,
    data: QuickMessageUpdate,
  ): Promise<{ geral?: boolean; queueId?: number | null }> {
    if (data.queueId && !(await queueExists(tenantDb(ctx), data.queueId))) throw unknownQueue();
    // an agent shares a reply with a queue of theirs only; an admin with any
    if (data.queueId && !hasRole(ctx, 'admin') && !ctx.queueIds.includes(data.queueId)) {
      throw forbidden();
    }
    if (data.queueId) return { geral: false, queueId: data.queueId };
    return { geral: data.geral, queueId: data.geral ? null : data.queueId };
  }

  async create(ctx: RequestContext, data: QuickMessageCreate): Promise<QuickMessage> {
    const scope = await this.#scope(ctx, data);
    const row = await insertQuickMessage(tenantDb(ctx), {
      shortcode: data.shortcode,
      message: data.message ?? '',
      geral: scope.geral ?? false,
      queueId: scope.queueId ?? null,
      userId: ctx.userId,
    }).catch(duplicateShortcode);
    return this.#announce(ctx, 'create', this.#present(row), row.userId);
  }

  async update(ctx: RequestContext, id: number, data: QuickMessageUpdate): Promise<QuickMessage> {
    const current = await this.#editable(ctx, id);
    const row = await updateQuickMessage(tenantDb(ctx), id, {
      shortcode: data.shortcode,
      message: data.message,
      ...(await this.#scope(ctx, data)),
    }).catch(duplicateShortcode);
    if (!row) throw notFound();
    return this.#announce(ctx, 'update', this.#present(row), row.userId, current);
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const current = await this.#editable(ctx, id);
    await deleteQuickMessage(tenantDb(ctx), id);
    await forgetStored(this.platform.storage, current.mediaPath);
    this.platform.events.emit('quickMessage.deleted', {
      companyId: ctx.companyId,
      id,
      ownerId: current.userId,
      geral: current.geral,
      queueId: current.queueId,
    });
  }

  /** Attaches a file (form field `file`), replacing the one it had. */
  async attachMedia(
    ctx: RequestContext,
    id: number,
    source: MultipartSource | undefined,
  ): Promise<QuickMessage> {
    const current = await this.#editable(ctx, id);
    return replaceAttachment(source, this.platform.storage, ctx.companyId, {
      types: MEDIA_UPLOAD_TYPES,
      fields: quickMessageMediaFormSchema,
      previous: current.mediaPath,
      save: async (file) => {
        const row = await updateQuickMessage(tenantDb(ctx), id, {
          mediaPath: file.key,
          mediaName: file.fileName,
        });
        if (!row) throw notFound();
        return this.#announce(ctx, 'update', this.#present(row), row.userId);
      },
    });
  }

  async detachMedia(ctx: RequestContext, id: number): Promise<QuickMessage> {
    const current = await this.#editable(ctx, id);
    const row = (await updateQuickMessage(tenantDb(ctx), id, {
      mediaPath: null,
      mediaName: null,
    }))!;
    await forgetStored(this.platform.storage, current.mediaPath);
    return this.#announce(ctx, 'update', this.#present(row), row.userId);
  }

  async #readable(ctx: RequestContext, id: number): Promise<Row> {
    const row = await quickMessageById(tenantDb(ctx), id);
    if (!row) throw notFound();
    if (!can(ctx, 'quickMessages:all', ctx.planFlags) && !readableBy(row, ctx)) throw forbidden();
    return row;
  }

  /** Its author edits a reply; admins any. */
  async #editable(ctx: RequestContext, id: number): Promise<Row> {
    const row = await this.#readable(ctx, id);
    if (!hasRole(ctx, 'admin') && row.userId !== ctx.userId) throw forbidden();
    return row;
  }
}
