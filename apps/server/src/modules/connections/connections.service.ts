import { randomBytes } from 'node:crypto';
import {
  type Connection,
  type ConnectionCreate,
  type ConnectionSession,
  type ConnectionUpdate,
  hasRole,
} from '@atendi/shared';
import { saveCloudApiSettings } from '../../channels/cloud-api/cloud-api.settings';
import type { ConnectionRef, StatusUpdate } from '../../channels/provider';
import { isUniqueViolation } from '../../db/errors';
import { globalDb } from '../../db/global';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { ServiceDeps } from '../deps';
import { withinPlanLimit } from '../plans/plans.limits';
import { checkBotReferences } from '../queue-integrations/queue-integrations.references';
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
    await checkBotReferences(db, data);
    const id = await globalDb(ctx)
      .transaction(async (global, tenantOf) => {
        const tx = tenantOf(ctx.companyId);
        // Counted under a lock on the company, so concurrent creations cannot pass the limit.
        if (!(await withinPlanLimit(global, ctx.companyId, 'connections', () => repo.count(tx)))) {
          throw new AppError('ERR_NO_PERMISSION', 403);
        }
        // The first connection is the default one; a new default replaces the old.
        const first = (await repo.count(tx)) === 0;
        const isDefault = first || data.isDefault === true;
        if (isDefault) await repo.clearDefault(tx);
        const id = await repo.insert(tx, {
          ...this.#fields(data),
          name: data.name,
          isDefault,
          token: newApiToken(),
        });
        await repo.setQueues(tx, id, data.queueIds ?? []);
        // Write-only secrets of a Cloud API connection, kept with its session keys.
        if (data.cloudApi || data.provider === 'cloud-api') {
          await saveCloudApiSettings(tx, id, data.cloudApi ?? {});
        }
        return id;
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
    await checkBotReferences(db, data);
    if (data.isDefault === false && current.row.isDefault) {
      throw new AppError('ERR_NO_OTHER_WHATSAPP', 400);
    }
    await db
      .transaction(async (tx) => {
        if (data.isDefault) await repo.clearDefault(tx, id);
        await repo.update(tx, id, { ...this.#fields(data), isDefault: data.isDefault });
        if (data.queueIds) await repo.setQueues(tx, id, data.queueIds);
        const becomesCloud = data.provider === 'cloud-api' && current.row.provider !== 'cloud-api';
        if (data.cloudApi || becomesCloud) await saveCloudApiSettings(tx, id, data.cloudApi ?? {});
      })
      .catch(translateUnique);
    return this.#announce(ctx, id, 'update');
  }

  /** A new external-API token; whoever held the old one is refused from now on. */
  async regenerateToken(ctx: RequestContext, id: number): Promise<Connection> {
    const db = tenantDb(ctx);
    if (!(await repo.byId(db, id))) throw notFound();
    await repo.update(db, id, { token: newApiToken() });
    return this.#announce(ctx, id, 'update');
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = tenantDb(ctx);
    const deleted = await db.transaction(async (tx) => {
      const row = await repo.delete(tx, id);
      // Another connection becomes the default, so one always exists while any do.
      if (row?.isDefault) await repo.promoteAnyToDefault(tx);
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
    const session = await repo.updateSession(tenantDb(ctx), id, {
      sessionEnabled: true,
      status: 'OPENING',
      qrcode: '',
    });
    if (!session) throw notFound();
    this.platform.events.emit('connection.session', { companyId: ctx.companyId, session });
    await this.platform.channels.publish({ connectionId: id, action: renew ? 'renew' : 'restart' });
    return session;
  }

  /** DELETE /whatsappsession/:id: disconnects and unpairs the phone. */
  async disconnect(ctx: RequestContext, id: number): Promise<ConnectionSession> {
    const session = await repo.updateSession(tenantDb(ctx), id, {
      sessionEnabled: false,
      status: 'DISCONNECTED',
      qrcode: '',
    });
    if (!session) throw notFound();
    await this.platform.channels.publish({ connectionId: id, action: 'logout' });
    this.platform.events.emit('connection.session', { companyId: ctx.companyId, session });
    return session;
  }

  /**
   * What a provider reports about its session, saved and announced. With the lease's `epoch`,
   * a report from an instance that lost the connection to another one changes nothing.
   */
  async applyStatus(ref: ConnectionRef, update: StatusUpdate, epoch?: number): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, ref.companyId));
    const session = await repo.updateSession(
      db,
      ref.id,
      {
        status: update.status,
        ...(update.qrcode !== undefined ? { qrcode: update.qrcode } : {}),
        ...(update.number !== undefined ? { number: update.number } : {}),
        ...(update.retries !== undefined ? { retries: update.retries } : {}),
      },
      epoch,
    );
    if (session) {
      this.platform.events.emit('connection.session', { companyId: ref.companyId, session });
    }
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
    if (data.transferQueueId && (await repo.countQueues(db, [data.transferQueueId])) === 0) {
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
