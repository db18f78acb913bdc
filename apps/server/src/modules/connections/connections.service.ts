import { randomBytes } from 'node:crypto';
import {
  type Connection,
  type ConnectionCreate,
  type ConnectionSession,
  type ConnectionUpdate,
  hasRole,
} from '@atendi/shared';
import { and, eq, ne } from 'drizzle-orm';
import { saveCloudApiSettings } from '../../channels/cloud-api/cloud-api.settings';
import type { ConnectionRef, StatusUpdate } from '../../channels/provider';
import { isUniqueViolation } from '../../db/errors';
import { globalDb } from '../../db/global';
import { connections, queues } from '../../db/schema';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { isoRequired } from '../../platform/routes';
import type { ServiceDeps } from '../deps';
import { lockPlanOfCompany } from '../plans/plans.repository';
import { presentConnection, connectionsRepository as repo } from './connections.repository';

/** External-API tokens: 256 random bits, so an empty or guessed token never matches. */
export const newApiToken = () => randomBytes(32).toString('base64url');

const notFound = () => new AppError('ERR_NO_WAPP_FOUND', 404);

export class ConnectionsService {
  constructor(private readonly platform: Pick<ServiceDeps, 'db' | 'events' | 'channels'>) {}

  async list(ctx: RequestContext): Promise<Connection[]> {
    const rows = await repo.list(tenantDb(ctx));
    return rows.map((row) => presentConnection(row, hasRole(ctx, 'admin')));
  }

  async get(ctx: RequestContext, id: number): Promise<Connection> {
    const row = await repo.byId(tenantDb(ctx), id);
    if (!row) throw notFound();
    return presentConnection(row, hasRole(ctx, 'admin'));
  }

  async create(ctx: RequestContext, data: ConnectionCreate): Promise<Connection> {
    const db = tenantDb(ctx);
    await this.#checkRules(db, data);
    const id = await globalDb(ctx)
      .transaction(async (global, tenantOf) => {
        const tx = tenantOf(ctx.companyId);
        // Counted under a lock on the company, so concurrent creations cannot pass the limit.
        const plan = await lockPlanOfCompany(global, ctx.companyId);
        if (plan && plan.connections > 0 && (await tx.count(connections)) >= plan.connections) {
          throw new AppError('ERR_NO_PERMISSION', 403);
        }
        // The first connection is the default one; a new default replaces the old.
        const first = (await tx.count(connections)) === 0;
        const isDefault = first || data.isDefault === true;
        if (isDefault)
          await tx.update(connections, { isDefault: false }, eq(connections.isDefault, true));
        const [row] = await tx
          .insert(connections, {
            ...this.#fields(data),
            name: data.name,
            isDefault,
            token: newApiToken(),
          })
          .returning({ id: connections.id });
        await repo.setQueues(tx, row!.id, data.queueIds ?? []);
        // Write-only secrets of a Cloud API connection, kept with its session keys.
        if (data.cloudApi || data.provider === 'cloud-api') {
          await saveCloudApiSettings(tx, row!.id, data.cloudApi ?? {});
        }
        return row!.id;
      })
      .catch(translateUnique);
    return this.#announce(ctx, id, 'create');
  }

  async update(ctx: RequestContext, id: number, data: ConnectionUpdate): Promise<Connection> {
    const db = tenantDb(ctx);
    const current = await repo.byId(db, id);
    if (!current) throw notFound();
    await this.#checkRules(db, {
      greetingMessage: data.greetingMessage ?? current.row.greetingMessage,
      queueIds: data.queueIds ?? current.queues.map((queue) => queue.id),
      transferQueueId: data.transferQueueId,
    });
    if (data.isDefault === false && current.row.isDefault) {
      throw new AppError('ERR_NO_OTHER_WHATSAPP', 400);
    }
    await db
      .transaction(async (tx) => {
        if (data.isDefault) {
          await tx.update(
            connections,
            { isDefault: false },
            and(eq(connections.isDefault, true), ne(connections.id, id))!,
          );
        }
        await tx.update(
          connections,
          { ...this.#fields(data), isDefault: data.isDefault, updatedAt: new Date() },
          eq(connections.id, id),
        );
        if (data.queueIds) await repo.setQueues(tx, id, data.queueIds);
        const becomesCloud = data.provider === 'cloud-api' && current.row.provider !== 'cloud-api';
        if (data.cloudApi || becomesCloud) await saveCloudApiSettings(tx, id, data.cloudApi ?? {});
      })
      .catch(translateUnique);
    return this.#announce(ctx, id, 'update');
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = tenantDb(ctx);
    const deleted = await db.transaction(async (tx) => {
      const [row] = await tx
        .delete(connections, eq(connections.id, id))
        .returning({ id: connections.id, isDefault: connections.isDefault });
      if (row?.isDefault) {
        // Another connection becomes the default, so one always exists while any do.
        const [next] = await tx.select({ id: connections.id }).from(connections).limit(1);
        if (next) await tx.update(connections, { isDefault: true }, eq(connections.id, next.id));
      }
      return row;
    });
    if (!deleted) throw notFound();
    await this.platform.channels.publish({ connectionId: id, action: 'stop' });
    this.platform.events.emit('connection.deleted', { companyId: ctx.companyId, connectionId: id });
  }

  /**
   * POST /whatsappsession/:id (retry): the owner restarts the session from its stored login.
   * PUT (new QR, `renew`): the owner forgets the stored login first, so a new one is asked for.
   */
  async startSession(ctx: RequestContext, id: number, renew = false): Promise<ConnectionSession> {
    const db = tenantDb(ctx);
    const [row] = await db
      .update(
        connections,
        { sessionEnabled: true, status: 'OPENING', qrcode: '', updatedAt: new Date() },
        eq(connections.id, id),
      )
      .returning();
    if (!row) throw notFound();
    const session = this.#session(row);
    this.platform.events.emit('connection.session', { companyId: ctx.companyId, session });
    await this.platform.channels.publish({ connectionId: id, action: renew ? 'renew' : 'restart' });
    return session;
  }

  /** DELETE /whatsappsession/:id: disconnects and unpairs the phone. */
  async disconnect(ctx: RequestContext, id: number): Promise<ConnectionSession> {
    const [row] = await tenantDb(ctx)
      .update(
        connections,
        { sessionEnabled: false, status: 'DISCONNECTED', qrcode: '', updatedAt: new Date() },
        eq(connections.id, id),
      )
      .returning();
    if (!row) throw notFound();
    await this.platform.channels.publish({ connectionId: id, action: 'logout' });
    const session = this.#session(row);
    this.platform.events.emit('connection.session', { companyId: ctx.companyId, session });
    return session;
  }

  /**
   * What a provider reports about its session, saved and announced. With the lease's `epoch`,
   * a report from an instance that lost the connection to another one changes nothing.
   */
  async applyStatus(ref: ConnectionRef, update: StatusUpdate, epoch?: number): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, ref.companyId));
    const [row] = await db
      .update(
        connections,
        {
          status: update.status,
          ...(update.qrcode !== undefined ? { qrcode: update.qrcode } : {}),
          ...(update.number !== undefined ? { number: update.number } : {}),
          ...(update.retries !== undefined ? { retries: update.retries } : {}),
          updatedAt: new Date(),
        },
        and(
          eq(connections.id, ref.id),
          epoch === undefined ? undefined : eq(connections.leaseEpoch, epoch),
        )!,
      )
      .returning();
    if (row) {
      this.platform.events.emit('connection.session', {
        companyId: ref.companyId,
        session: this.#session(row),
      });
    }
  }

  #session(row: typeof connections.$inferSelect): ConnectionSession {
    return {
      id: row.id,
      name: row.name,
      status: row.status as ConnectionSession['status'],
      qrcode: row.qrcode,
      retries: row.retries,
      number: row.number,
      isDefault: row.isDefault,
      updatedAt: isoRequired(row.updatedAt),
    };
  }

  #fields(data: ConnectionUpdate) {
    const {
      queueIds: _queues,
      token: _token,
      status: _status,
      companyId: _company,
      isDefault: _d,
      cloudApi: _cloudApi,
      ...fields
    } = data;
    return fields;
  }

  async #checkRules(
    db: TenantDb,
    data: Pick<ConnectionUpdate, 'greetingMessage' | 'queueIds' | 'transferQueueId'>,
  ) {
    const queueIds = [...new Set(data.queueIds ?? [])];
    if (queueIds.length > 1 && !data.greetingMessage?.trim()) {
      throw new AppError('ERR_WAPP_GREETING_REQUIRED', 400);
    }
    if ((await repo.countQueues(db, queueIds)) !== queueIds.length) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.queueIds', message: 'Unknown queue' }],
      });
    }
    if (
      data.transferQueueId &&
      (await db.count(queues, eq(queues.id, data.transferQueueId))) === 0
    ) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.transferQueueId', message: 'Unknown queue' }],
      });
    }
  }

  async #announce(ctx: RequestContext, id: number, action: 'create' | 'update') {
    const connection = await this.get(ctx, id);
    this.platform.events.emit('connection.saved', { companyId: ctx.companyId, action, connection });
    return connection;
  }
}

function translateUnique(error: unknown): never {
  if (isUniqueViolation(error, 'connections_company_name_key')) {
    throw new AppError('ERR_VALIDATION', 409, {
      fields: [{ path: 'body.name', message: 'Duplicated' }],
    });
  }
  throw error;
}
