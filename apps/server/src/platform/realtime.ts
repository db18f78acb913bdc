import type { Server as HttpServer } from 'node:http';
import {
  type Access,
  ANNOUNCEMENT_EVENT,
  type AnnouncementPayload,
  CLIENT_MESSAGES,
  type CompanyTopic,
  can,
  companyEvent,
  JOIN_REFUSED_EVENT,
  PERMISSIONS,
  type PermissionName,
  type RealtimePayloads,
  SOCKET_PING_INTERVAL_MS,
  SOCKET_PING_TIMEOUT_MS,
} from '@atendi/shared';
import type { FastifyBaseLogger } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Db } from '../db/client';
import type { RequestContext } from './auth/context';
import { loadContext } from './auth/context';
import { authenticate } from './auth/guard';
import type { AccessClaims, TokenService } from './auth/tokens';
import { AppError } from './errors';
import type { EventBus } from './events';

/**
 * Rooms of the realtime channel. A socket sits in its company's room, its user's, the rooms of
 * the permissions its user holds (the permission table's, the rule of every GET route), the
 * rooms of the queues whose tickets it may read, and the rooms of what it joined (a ticket's
 * conversation, the simulator page).
 */
export const rooms = {
  company: (companyId: number) => `company-${companyId}`,
  /** Users of the company who hold the permission (their plan allowing). */
  may: (companyId: number, permission: PermissionName) => `company-${companyId}-may-${permission}`,
  user: (companyId: number, userId: number) => `company-${companyId}-user-${userId}`,
  queue: (companyId: number, queueId: number) => `company-${companyId}-queue-${queueId}`,
  noQueue: (companyId: number) => `company-${companyId}-noqueue`,
  ticket: (companyId: number, ticketId: number) => `company-${companyId}-ticket-${ticketId}`,
  /** Sockets of the simulator page, which shows every simulated phone's conversation. */
  simulator: (companyId: number) => `company-${companyId}-simulator-page`,
  /** Every socket of every company; and those, in any company, who hold a platform permission. */
  platform: 'platform',
  platformMay: (permission: PermissionName) => `platform-may-${permission}`,
};

/**
 * Who receives an event of one company: the union of the rooms named. Modules declare it next
 * to their events (`modules/<area>/<area>.audience.ts`); the gateway only delivers.
 */
export interface Audience {
  companyId: number;
  /** Users who hold the permission: the access of the GET routes that read the record. */
  may?: PermissionName;
  userIds?: number[];
  /** The sockets that may read the tickets of a queue (`null`: of no queue, while pending). */
  queueId?: number | null;
  /** Sockets that joined the ticket's conversation. */
  ticketId?: number;
  /** Sockets on the simulator page. */
  simulator?: boolean;
}

/** The readers of a company's record: whoever may call `route`, a GET that answers it. */
export function readersOf(companyId: number, route: { access: Access }): Audience {
  return { companyId, may: route.access === 'public' ? 'session:use' : route.access };
}

/** Who receives a platform event (an announcement): every socket, or those holding `may`. */
export interface PlatformAudience {
  platform: true;
  may?: PermissionName;
}

/** What the modules' audiences use: the gateway, seen as the one place that delivers. */
export interface Deliverer {
  emit<T extends CompanyTopic>(
    audience: Audience,
    topic: T,
    payload: RealtimePayloads[T],
    except?: Audience,
  ): void;
  announce(audience: PlatformAudience, payload: AnnouncementPayload): void;
  /** Sockets in the ticket's conversation that may no longer read it leave it. */
  recheckTicket(companyId: number, ticketId: number): void;
}

/**
 * A module's declaration of who hears its facts: it listens to the facts on the bus and hands
 * each event to the gateway with its audience.
 */
export type RealtimeAudience = (events: EventBus, realtime: Deliverer) => void;

export type TicketReadCheck = (ctx: RequestContext, ticketId: number) => Promise<boolean>;

export interface RealtimeOptions {
  db: Db;
  tokens: TokenService;
  events: EventBus;
  logger: FastifyBaseLogger;
  corsOrigins: string[];
  /** Rules of ticket access; the tickets module provides them. */
  canReadTicket: TicketReadCheck;
  /** Who hears what: every module's declaration. */
  audiences: readonly RealtimeAudience[];
  /** Observes every payload sent (tests scan them for secrets). */
  onEmit?: (event: string, payload: unknown) => void;
  /** Presence writes for userStatus pings. */
  markSeen: (ctx: RequestContext, online: boolean) => Promise<void>;
}

interface SocketData {
  ctx: RequestContext;
  claims: AccessClaims;
}

const PERMISSION_NAMES = Object.keys(PERMISSIONS) as PermissionName[];

/** The rooms a caller's permissions, queues and ticket visibility put its sockets in. */
function accessRooms(ctx: RequestContext) {
  const { companyId } = ctx;
  const list: string[] = [];
  for (const permission of PERMISSION_NAMES) {
    if (!can(ctx, permission, ctx.planFlags)) continue;
    list.push(rooms.may(companyId, permission));
    if (PERMISSIONS[permission].role === 'super') list.push(rooms.platformMay(permission));
  }
  for (const queueId of ctx.queueIds) list.push(rooms.queue(companyId, queueId));
  if (ctx.allTicket) list.push(rooms.noQueue(companyId));
  return list;
}

const isAccessRoom = (room: string) => /-(may-[\w:]+|noqueue|queue-\d+)$/.test(room);

function roomsOf(audience: Audience): string[] {
  const { companyId } = audience;
  const targets: string[] = [];
  if (audience.may) targets.push(rooms.may(companyId, audience.may));
  for (const userId of audience.userIds ?? []) targets.push(rooms.user(companyId, userId));
  if (audience.queueId !== undefined) {
    targets.push(
      audience.queueId === null
        ? rooms.noQueue(companyId)
        : rooms.queue(companyId, audience.queueId),
    );
  }
  if (audience.ticketId !== undefined) targets.push(rooms.ticket(companyId, audience.ticketId));
  if (audience.simulator) targets.push(rooms.simulator(companyId));
  return targets;
}

const TICKET_STATUSES = new Set(['open', 'pending', 'closed', 'notification']);

/**
 * The realtime channel: socket.io on the API server, the only place that talks to socket.io. It
 * delivers: sockets are put in the rooms their user may hear, and each module's audience
 * (`RealtimeAudience`) names the rooms its events go to.
 */
export class RealtimeGateway implements Deliverer {
  readonly io: Server;
  #closed = false;

  constructor(
    httpServer: HttpServer,
    private readonly options: RealtimeOptions,
  ) {
    this.io = new Server(httpServer, {
      pingInterval: SOCKET_PING_INTERVAL_MS,
      pingTimeout: SOCKET_PING_TIMEOUT_MS,
      cors: { origin: options.corsOrigins, credentials: true },
      maxHttpBufferSize: 64 * 1024,
    });
    this.io.use(async (socket, next) => {
      try {
        const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
        const text = typeof token === 'string' ? token : undefined;
        const ctx = await authenticate(options.db, options.tokens, text);
        const verified = await options.tokens.verify(text!);
        if (!verified.ok) throw new AppError('ERR_SESSION_EXPIRED', 401);
        Object.assign(socket.data as SocketData, { ctx, claims: verified.claims });
        next();
      } catch (error) {
        const code = error instanceof AppError ? error.code : 'ERR_SESSION_EXPIRED';
        next(new Error(code));
      }
    });
    this.io.on('connection', (socket) => this.#onConnection(socket));
    this.#subscribe();
    for (const audience of options.audiences) audience(options.events, this);
  }

  /**
   * Sends `company-{id}-{topic}` to the audience, leaving out the sockets of `except`. The
   * payload is the topic's in the shared map, which the web's subscriptions read.
   */
  emit<T extends CompanyTopic>(
    audience: Audience,
    topic: T,
    payload: RealtimePayloads[T],
    except?: Audience,
  ): void {
    // Closed: the sockets are gone and the adapter's Redis may be too (what stopping sessions
    // still report would be published into a closed connection).
    if (this.#closed) return;
    const targets = roomsOf(audience);
    if (targets.length === 0) return;
    const event = companyEvent(audience.companyId, topic);
    this.options.onEmit?.(event, payload);
    const excluded = except ? roomsOf(except) : [];
    (excluded.length ? this.io.to(targets).except(excluded) : this.io.to(targets)).emit(
      event,
      payload,
    );
  }

  /** Sends `company-announcement`, the only event not scoped to one company. */
  announce(audience: PlatformAudience, payload: AnnouncementPayload): void {
    if (this.#closed) return;
    this.options.onEmit?.(ANNOUNCEMENT_EVENT, payload);
    this.io
      .to(audience.may ? rooms.platformMay(audience.may) : rooms.platform)
      .emit(ANNOUNCEMENT_EVENT, payload);
  }

  recheckTicket(companyId: number, ticketId: number): void {
    void this.#evictFromTicket(companyId, ticketId).catch(() => {});
  }

  /**
   * Before the instance stops: new handshakes are refused at the transport (a client takes that
   * as a network failure and retries, reaching another instance through the load balancer) and
   * the connected clients' transports are closed, so they reconnect elsewhere at once. Events
   * keep flowing to the other instances through the adapter until `close()`.
   */
  drain(): void {
    this.io.engine.opts.allowRequest = (_request, answer) => answer('draining', false);
    this.io.engine.close();
  }

  close(): Promise<void> {
    this.#closed = true;
    return new Promise((resolve) => this.io.close(() => resolve()));
  }

  #onConnection(socket: Socket) {
    const data = socket.data as SocketData;
    const { ctx } = data;
    const { companyId } = ctx;
    socket.join([
      rooms.platform,
      rooms.company(companyId),
      rooms.user(companyId, ctx.userId),
      ...accessRooms(ctx),
    ]);
    void this.options.markSeen(ctx, true).catch(() => {});

    const answer = (ack: unknown, ok: boolean, what: string) => {
      if (!ok) socket.emit(JOIN_REFUSED_EVENT, { what });
      if (typeof ack === 'function') ack({ ok });
    };

    // The ticket lists: the socket already sits in the rooms of the queues it may read. A list
    // is named by its status; the notifications by nothing, so a room or id given is refused.
    for (const message of [CLIENT_MESSAGES.joinTickets, CLIENT_MESSAGES.joinNotification]) {
      socket.on(message, (...args: unknown[]) => {
        const ack = typeof args.at(-1) === 'function' ? args.pop() : undefined;
        const [status] = args;
        const ok =
          message === CLIENT_MESSAGES.joinNotification
            ? status === undefined || status === null
            : TICKET_STATUSES.has(String(status));
        answer(ack, ok, message);
      });
    }
    socket.on(CLIENT_MESSAGES.joinChatBox, async (ticketId: unknown, ack?: unknown) => {
      const id = Number(ticketId);
      // Judged with the caller as it is now (queues and profile may have changed since connect).
      const fresh = await loadContext(this.options.db, data.claims).catch(() => null);
      if (!fresh) {
        socket.disconnect(true);
        return;
      }
      const ok =
        Number.isSafeInteger(id) &&
        id > 0 &&
        (await this.options.canReadTicket(fresh, id).catch(() => false));
      if (ok) socket.join(rooms.ticket(companyId, id));
      answer(ack, ok, CLIENT_MESSAGES.joinChatBox);
    });
    socket.on(CLIENT_MESSAGES.leaveChatBox, (ticketId: unknown) => {
      socket.leave(rooms.ticket(companyId, Number(ticketId)));
    });
    // The simulator page: any user who may use it (connections:read, as its routes ask).
    socket.on(CLIENT_MESSAGES.joinSimulator, async (ack?: unknown) => {
      const fresh = await loadContext(this.options.db, data.claims).catch(() => null);
      if (!fresh) {
        socket.disconnect(true);
        return;
      }
      const ok = can(fresh, 'connections:read', fresh.planFlags);
      if (ok) socket.join(rooms.simulator(companyId));
      answer(ack, ok, CLIENT_MESSAGES.joinSimulator);
    });
    socket.on(CLIENT_MESSAGES.leaveSimulator, () => {
      socket.leave(rooms.simulator(companyId));
    });
    socket.on(CLIENT_MESSAGES.userStatus, () => {
      void this.options.markSeen(ctx, true).catch(() => {});
    });
    socket.on('disconnect', () => {
      // Offline once the user's last socket, on any instance, is gone.
      this.io
        .in(rooms.user(companyId, ctx.userId))
        .fetchSockets()
        .then((left) => (left.length === 0 ? this.options.markSeen(ctx, false) : undefined))
        .catch(() => {});
    });
  }

  /** Sockets that joined a ticket's conversation and may read it no more leave its room. */
  async #evictFromTicket(companyId: number, ticketId: number) {
    const room = rooms.ticket(companyId, ticketId);
    const sockets = await this.io
      .in(room)
      .fetchSockets()
      .catch(() => []);
    for (const socket of sockets) {
      // Judged with the caller as it is now, like a join.
      const fresh = await loadContext(this.options.db, (socket.data as SocketData).claims).catch(
        () => null,
      );
      const allowed = fresh
        ? await this.options.canReadTicket(fresh, ticketId).catch(() => false)
        : false;
      if (!allowed) socket.leave(room);
    }
  }

  /** Closes the sockets of ended sessions (all of a user's when `sessionIds` is absent). */
  async #disconnect(room: string, sessionIds?: string[]) {
    const sockets = await this.io.in(room).fetchSockets();
    for (const socket of sockets) {
      const { ctx } = socket.data as SocketData;
      if (!sessionIds || sessionIds.includes(ctx.sessionId)) socket.disconnect(true);
    }
  }

  /** Moves a user's sockets to the rooms its profile, queues and plan now allow. */
  async #resync(companyId: number, userId: number) {
    const sockets = await this.io.in(rooms.user(companyId, userId)).fetchSockets();
    for (const socket of sockets) {
      const fresh = await loadContext(this.options.db, (socket.data as SocketData).claims).catch(
        () => null,
      );
      if (!fresh) {
        socket.disconnect(true);
        continue;
      }
      for (const room of socket.rooms) if (isAccessRoom(room)) socket.leave(room);
      socket.join(accessRooms(fresh));
    }
  }

  /** Who is in which room: sessions ended, users and companies deleted, users changed. */
  #subscribe() {
    const { events } = this.options;
    const quietly = (work: Promise<void>) => void work.catch(() => {});
    events.on('auth.revoked', ({ companyId, userId, sessionIds }) =>
      quietly(this.#disconnect(rooms.user(companyId, userId), sessionIds)),
    );
    events.on('company.deleted', ({ companyId }) =>
      quietly(this.#disconnect(rooms.company(companyId))),
    );
    events.on('user.deleted', ({ companyId, userId }) =>
      quietly(this.#disconnect(rooms.user(companyId, userId))),
    );
    events.on('user.saved', ({ companyId, user }) => quietly(this.#resync(companyId, user.id)));
  }
}
