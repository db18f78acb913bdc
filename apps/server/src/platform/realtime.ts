import type { Server as HttpServer } from 'node:http';
import type { Ticket } from '@atendi/shared';
import {
  CLIENT_MESSAGES,
  type CompanyTopic,
  companyEvent,
  JOIN_REFUSED_EVENT,
  SOCKET_PING_INTERVAL_MS,
  SOCKET_PING_TIMEOUT_MS,
} from '@atendi/shared';
import type { FastifyBaseLogger } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Db } from '../db/client';
import type { RequestContext } from './auth/context';
import { authenticate } from './auth/guard';
import type { TokenService } from './auth/tokens';
import { AppError } from './errors';
import type { EventBus } from './events';

/** Rooms inside a company; every emission names one or more of them. */
export const rooms = {
  company: (companyId: number) => `company-${companyId}`,
  admins: (companyId: number) => `company-${companyId}-admins`,
  user: (companyId: number, userId: number) => `company-${companyId}-user-${userId}`,
  queue: (companyId: number, queueId: number) => `company-${companyId}-queue-${queueId}`,
  noQueue: (companyId: number) => `company-${companyId}-noqueue`,
  ticket: (companyId: number, ticketId: number) => `company-${companyId}-ticket-${ticketId}`,
};

/** Who receives an event: always within one company. */
export interface Audience {
  companyId: number;
  /** Everyone in the company. */
  everyone?: boolean;
  admins?: boolean;
  userIds?: number[];
  queueId?: number | null;
  ticketId?: number;
}

export type TicketReadCheck = (ctx: RequestContext, ticketId: number) => Promise<boolean>;

export interface RealtimeOptions {
  db: Db;
  tokens: TokenService;
  events: EventBus;
  logger: FastifyBaseLogger;
  corsOrigins: string[];
  /** Rules of ticket access; the tickets module provides them. */
  canReadTicket?: TicketReadCheck;
  /** Observes every payload sent (tests scan them for secrets). */
  onEmit?: (event: string, payload: unknown) => void;
  /** Presence writes for userStatus pings. */
  markSeen: (ctx: RequestContext, online: boolean) => Promise<void>;
}

interface SocketData {
  ctx: RequestContext;
}

const TICKET_STATUSES = new Set(['open', 'pending', 'closed', 'notification']);

/**
 * The realtime channel: socket.io on the API server. The only place that talks to socket.io;
 * services announce facts on the event bus and this gateway decides who hears them.
 */
export class RealtimeGateway {
  readonly io: Server;
  #canReadTicket: TicketReadCheck;

  constructor(
    httpServer: HttpServer,
    private readonly options: RealtimeOptions,
  ) {
    this.#canReadTicket = options.canReadTicket ?? (async () => false);
    this.io = new Server(httpServer, {
      pingInterval: SOCKET_PING_INTERVAL_MS,
      pingTimeout: SOCKET_PING_TIMEOUT_MS,
      cors: { origin: options.corsOrigins, credentials: true },
      maxHttpBufferSize: 64 * 1024,
    });
    this.io.use(async (socket, next) => {
      try {
        const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
        const ctx = await authenticate(
          options.db,
          options.tokens,
          typeof token === 'string' ? token : undefined,
        );
        (socket.data as SocketData).ctx = ctx;
        next();
      } catch (error) {
        const code = error instanceof AppError ? error.code : 'ERR_SESSION_EXPIRED';
        next(new Error(code));
      }
    });
    this.io.on('connection', (socket) => this.#onConnection(socket));
    this.#subscribe();
  }

  setTicketReadCheck(check: TicketReadCheck): void {
    this.#canReadTicket = check;
  }

  /** Sends `company-{id}-{topic}` to the audience. */
  emit(audience: Audience, topic: CompanyTopic, payload: object): void {
    const { companyId } = audience;
    const targets: string[] = [];
    if (audience.everyone) targets.push(rooms.company(companyId));
    else {
      if (audience.admins) targets.push(rooms.admins(companyId));
      for (const userId of audience.userIds ?? []) targets.push(rooms.user(companyId, userId));
      if (audience.queueId !== undefined) {
        targets.push(
          audience.queueId === null
            ? rooms.noQueue(companyId)
            : rooms.queue(companyId, audience.queueId),
        );
      }
      if (audience.ticketId !== undefined) targets.push(rooms.ticket(companyId, audience.ticketId));
    }
    if (targets.length === 0) return;
    const event = companyEvent(companyId, topic);
    this.options.onEmit?.(event, payload);
    this.io.to(targets).emit(event, payload);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.io.close(() => resolve()));
  }

  #onConnection(socket: Socket) {
    const { ctx } = socket.data as SocketData;
    const { companyId } = ctx;
    const own = [rooms.company(companyId), rooms.user(companyId, ctx.userId)];
    if (ctx.profile === 'admin' || ctx.super) own.push(rooms.admins(companyId));
    for (const queueId of ctx.queueIds) own.push(rooms.queue(companyId, queueId));
    if (ctx.allTicket) own.push(rooms.noQueue(companyId));
    socket.join(own);
    void this.options.markSeen(ctx, true).catch(() => {});

    const answer = (ack: unknown, ok: boolean, what: string) => {
      if (!ok) socket.emit(JOIN_REFUSED_EVENT, { what });
      if (typeof ack === 'function') ack({ ok });
    };

    // The ticket lists: the socket already sits in the rooms of the queues it may read.
    for (const message of [CLIENT_MESSAGES.joinTickets, CLIENT_MESSAGES.joinNotification]) {
      socket.on(message, (status: unknown, ack?: unknown) => {
        const ok =
          message === CLIENT_MESSAGES.joinNotification || TICKET_STATUSES.has(String(status));
        answer(ack, ok, message);
      });
    }
    socket.on(CLIENT_MESSAGES.joinChatBox, async (ticketId: unknown, ack?: unknown) => {
      const id = Number(ticketId);
      const ok =
        Number.isSafeInteger(id) &&
        id > 0 &&
        (await this.#canReadTicket(ctx, id).catch(() => false));
      if (ok) socket.join(rooms.ticket(companyId, id));
      answer(ack, ok, CLIENT_MESSAGES.joinChatBox);
    });
    socket.on(CLIENT_MESSAGES.leaveChatBox, (ticketId: unknown) => {
      socket.leave(rooms.ticket(companyId, Number(ticketId)));
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

  #subscribe() {
    const { events } = this.options;
    events.on('auth.signedIn', ({ companyId, userId, sessionId }) =>
      this.emit({ companyId, userIds: [userId] }, 'auth', {
        action: 'update',
        user: { id: userId },
        sessionId,
      }),
    );
    events.on('user.saved', ({ companyId, action, user }) =>
      this.emit({ companyId, everyone: true }, 'user', { action, user }),
    );
    events.on('user.deleted', ({ companyId, userId }) =>
      this.emit({ companyId, everyone: true }, 'user', { action: 'delete', userId }),
    );
    events.on('user.presence', ({ companyId, userId, online }) =>
      this.emit({ companyId, admins: true }, 'user', { action: 'presence', userId, online }),
    );
    events.on('settings.updated', ({ companyId, setting }) =>
      this.emit({ companyId, everyone: true }, 'settings', { action: 'update', setting }),
    );
    events.on('queue.saved', ({ companyId, action, queue }) =>
      this.emit({ companyId, everyone: true }, 'queue', { action, queue }),
    );
    const ticketAudience = (companyId: number, ticket: Ticket): Audience => ({
      companyId,
      admins: true,
      queueId: ticket.queueId,
      userIds: ticket.userId ? [ticket.userId] : [],
      ticketId: ticket.id,
    });
    events.on('message.saved', ({ companyId, action, message, ticket }) =>
      this.emit(ticketAudience(companyId, ticket), 'appMessage', {
        action,
        message,
        ticket,
        contact: ticket.contact,
      }),
    );
    events.on('ticket.saved', ({ companyId, action, ticket }) =>
      this.emit(ticketAudience(companyId, ticket), 'ticket', { action, ticket }),
    );
    events.on('ticket.deleted', ({ companyId, ticket }) =>
      this.emit(ticketAudience(companyId, ticket), 'ticket', {
        action: 'delete',
        ticketId: ticket.id,
      }),
    );
    // The token and session keys are not part of these payloads (see connectionSessionSchema).
    events.on('connection.saved', ({ companyId, action, connection }) => {
      const { token: _secret, ...visible } = connection;
      this.emit({ companyId, everyone: true }, 'whatsapp', { action, whatsapp: visible });
    });
    events.on('connection.deleted', ({ companyId, connectionId }) =>
      this.emit({ companyId, everyone: true }, 'whatsapp', {
        action: 'delete',
        whatsappId: connectionId,
      }),
    );
    events.on('connection.session', ({ companyId, session }) =>
      this.emit({ companyId, everyone: true }, 'whatsappSession', { action: 'update', session }),
    );
    events.on('queue.deleted', ({ companyId, queueId }) =>
      this.emit({ companyId, everyone: true }, 'queue', { action: 'delete', queueId }),
    );
  }
}
