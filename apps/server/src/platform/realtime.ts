import type { Server as HttpServer } from 'node:http';
import type { Ticket, User } from '@atendi/shared';
import {
  ANNOUNCEMENT_EVENT,
  type AnnouncementPayload,
  CLIENT_MESSAGES,
  type CompanyTopic,
  can,
  companyEvent,
  JOIN_REFUSED_EVENT,
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

/** Rooms inside a company; every emission names one or more of them. */
export const rooms = {
  company: (companyId: number) => `company-${companyId}`,
  admins: (companyId: number) => `company-${companyId}-admins`,
  user: (companyId: number, userId: number) => `company-${companyId}-user-${userId}`,
  queue: (companyId: number, queueId: number) => `company-${companyId}-queue-${queueId}`,
  noQueue: (companyId: number) => `company-${companyId}-noqueue`,
  ticket: (companyId: number, ticketId: number) => `company-${companyId}-ticket-${ticketId}`,
  /** Sockets of the simulator page, which shows every simulated phone's conversation. */
  simulator: (companyId: number) => `company-${companyId}-simulator-page`,
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
  /** Sockets on the simulator page. */
  simulator?: boolean;
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
  claims: AccessClaims;
}

/** The rooms a caller's profile, queues and ticket visibility put its sockets in. */
function accessRooms(
  ctx: Pick<RequestContext, 'companyId' | 'profile' | 'super' | 'queueIds' | 'allTicket'>,
) {
  const { companyId } = ctx;
  const list: string[] = [];
  if (ctx.profile === 'admin' || ctx.super) list.push(rooms.admins(companyId));
  for (const queueId of ctx.queueIds) list.push(rooms.queue(companyId, queueId));
  if (ctx.allTicket) list.push(rooms.noQueue(companyId));
  return list;
}

const isAccessRoom = (room: string) => /-(admins|noqueue|queue-\d+)$/.test(room);

function roomsOf(audience: Audience): string[] {
  const { companyId } = audience;
  if (audience.everyone) return [rooms.company(companyId)];
  const targets: string[] = [];
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
  if (audience.simulator) targets.push(rooms.simulator(companyId));
  return targets;
}

const TICKET_STATUSES = new Set(['open', 'pending', 'closed', 'notification']);

/**
 * The realtime channel: socket.io on the API server. The only place that talks to socket.io;
 * services announce facts on the event bus and this gateway decides who hears them.
 */
export class RealtimeGateway {
  readonly io: Server;
  #canReadTicket: TicketReadCheck;
  #closed = false;

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
  }

  setTicketReadCheck(check: TicketReadCheck): void {
    this.#canReadTicket = check;
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

  /**
   * Sends `company-announcement` to every socket of every company: announcements are the
   * platform's. The only event not scoped to one company.
   */
  broadcastAnnouncement(payload: AnnouncementPayload): void {
    if (this.#closed) return;
    this.options.onEmit?.(ANNOUNCEMENT_EVENT, payload);
    this.io.emit(ANNOUNCEMENT_EVENT, payload);
  }

  close(): Promise<void> {
    this.#closed = true;
    return new Promise((resolve) => this.io.close(() => resolve()));
  }

  #onConnection(socket: Socket) {
    const data = socket.data as SocketData;
    const { ctx } = data;
    const { companyId } = ctx;
    socket.join([rooms.company(companyId), rooms.user(companyId, ctx.userId), ...accessRooms(ctx)]);
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
        (await this.#canReadTicket(fresh, id).catch(() => false));
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
      const allowed = fresh ? await this.#canReadTicket(fresh, ticketId).catch(() => false) : false;
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

  /** Moves a user's sockets to the rooms its new profile and queues allow. */
  async #resync(user: User) {
    const sockets = await this.io.in(rooms.user(user.companyId, user.id)).fetchSockets();
    const next = accessRooms({
      companyId: user.companyId,
      profile: user.profile,
      super: user.super,
      queueIds: user.queues.map((queue) => queue.id),
      allTicket: user.allTicket === 'enabled',
    });
    for (const socket of sockets) {
      for (const room of socket.rooms) if (isAccessRoom(room)) socket.leave(room);
      socket.join(next);
    }
  }

  #subscribe() {
    const { events } = this.options;
    const quietly = (work: Promise<void>) => void work.catch(() => {});
    events.on('announcement.saved', ({ action, record }) =>
      this.broadcastAnnouncement({ action, record }),
    );
    events.on('announcement.deleted', ({ id }) =>
      this.broadcastAnnouncement({ action: 'delete', id }),
    );
    events.on('auth.revoked', ({ companyId, userId, sessionIds }) =>
      quietly(this.#disconnect(rooms.user(companyId, userId), sessionIds)),
    );
    events.on('company.deleted', ({ companyId }) =>
      quietly(this.#disconnect(rooms.company(companyId))),
    );
    events.on('user.deleted', ({ companyId, userId }) =>
      quietly(this.#disconnect(rooms.user(companyId, userId))),
    );
    events.on('user.saved', ({ user }) => quietly(this.#resync(user)));
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
    // Only the admins manage the company's hours; the settings page follows them.
    events.on('company.saved', ({ companyId, company }) =>
      this.emit({ companyId, admins: true }, 'company', { action: 'update', company }),
    );
    events.on('settings.updated', ({ companyId, setting }) =>
      this.emit({ companyId, everyone: true }, 'settings', { action: 'update', setting }),
    );
    events.on('queue.saved', ({ companyId, action, queue }) =>
      this.emit({ companyId, everyone: true }, 'queue', { action, queue }),
    );
    // The rooms of ticketVisibility: admins, the ticket's queue (the no-queue room only while
    // pending, as allTicket users see no more), its agent and the open conversation.
    const ticketAudience = (
      companyId: number,
      ticket: Pick<Ticket, 'id' | 'status' | 'queueId' | 'userId'>,
    ): Audience => ({
      companyId,
      admins: true,
      queueId: ticket.queueId ?? (ticket.status === 'pending' ? null : undefined),
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
    events.on('ticket.saved', ({ companyId, action, ticket, previous }) => {
      const audience = ticketAudience(companyId, ticket);
      this.emit(
        audience,
        'ticket',
        action === 'updateUnread' ? { action, ticketId: ticket.id, ticket } : { action, ticket },
      );
      // Rooms that saw the ticket before a transfer, return or accept and see it no more.
      if (previous) {
        this.emit(
          ticketAudience(companyId, { ...previous, id: ticket.id }),
          'ticket',
          { action: 'delete', ticketId: ticket.id },
          audience,
        );
        void this.#evictFromTicket(companyId, ticket.id);
      }
    });
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
    events.on('contact.saved', ({ companyId, action, contact }) =>
      this.emit({ companyId, everyone: true }, 'contact', { action, contact }),
    );
    events.on('contact.deleted', ({ companyId, contactId }) =>
      this.emit({ companyId, everyone: true }, 'contact', { action: 'delete', contactId }),
    );
    // Only to sockets on the simulator page, which joined it as users of this company.
    events.on('simulator.changed', ({ companyId, connectionId, phone, messages }) =>
      this.emit({ companyId, simulator: true }, 'simulator', {
        action: 'update',
        connectionId,
        phone,
        messages,
      }),
    );
    events.on('tag.saved', ({ companyId, action, tag }) =>
      this.emit({ companyId, everyone: true }, 'tag', { action, tag }),
    );
    events.on('tag.deleted', ({ companyId, tagId }) =>
      this.emit({ companyId, everyone: true }, 'tag', { action: 'delete', tagId }),
    );
    events.on('quickMessage.saved', ({ companyId, action, record, ownerId }) =>
      this.emit(
        record.geral
          ? { companyId, everyone: true }
          : { companyId, userIds: ownerId ? [ownerId] : [] },
        'quickmessage',
        { action, record },
      ),
    );
    events.on('quickMessage.deleted', ({ companyId, id, ownerId, geral }) =>
      this.emit(
        geral ? { companyId, everyone: true } : { companyId, userIds: ownerId ? [ownerId] : [] },
        'quickmessage',
        { action: 'delete', id },
      ),
    );
    // Every user of the company sees its schedules (the plan switches them on for all).
    events.on('schedule.saved', ({ companyId, action, schedule }) =>
      this.emit({ companyId, everyone: true }, 'schedule', { action, schedule }),
    );
    events.on('schedule.deleted', ({ companyId, scheduleId }) =>
      this.emit({ companyId, everyone: true }, 'schedule', { action: 'delete', scheduleId }),
    );
    // Prompts are managed by admins (prompts:use): only they hear of them.
    events.on('prompt.saved', ({ companyId, action, prompt }) =>
      this.emit({ companyId, admins: true }, 'prompt', { action, prompt }),
    );
    events.on('prompt.deleted', ({ companyId, promptId }) =>
      this.emit({ companyId, admins: true }, 'prompt', { action: 'delete', promptId }),
    );
    // Invoices are paid by admins (financial:view): they see the checkout's success.
    events.on('invoice.paid', ({ companyId, invoiceId, dueDate }) =>
      this.emit({ companyId, admins: true }, 'payment', {
        action: 'CONCLUIDA',
        invoiceId,
        company: { id: companyId, dueDate },
      }),
    );
    // Integrations are managed by admins (integrations:use): only they hear of them.
    events.on('queueIntegration.saved', ({ companyId, action, queueIntegration }) =>
      this.emit({ companyId, admins: true }, 'queueIntegration', { action, queueIntegration }),
    );
    events.on('queueIntegration.deleted', ({ companyId, integrationId }) =>
      this.emit({ companyId, admins: true }, 'queueIntegration', {
        action: 'delete',
        integrationId,
      }),
    );
    // Contact lists are the campaigns' (admins').
    events.on('contactList.saved', ({ companyId, action, record }) =>
      this.emit({ companyId, admins: true }, 'ContactList', { action, record }),
    );
    events.on('contactList.deleted', ({ companyId, id }) =>
      this.emit({ companyId, admins: true }, 'ContactList', { action: 'delete', id }),
    );
    events.on('contactListItem.saved', ({ companyId, action, record }) =>
      this.emit({ companyId, admins: true }, 'ContactListItem', { action, record }),
    );
    events.on('contactListItem.deleted', ({ companyId, id, contactListId }) =>
      this.emit({ companyId, admins: true }, 'ContactListItem', {
        action: 'delete',
        id,
        contactListId,
      }),
    );
    events.on('contactListItem.reload', ({ companyId, contactListId }) =>
      this.emit({ companyId, admins: true }, 'ContactListItem', {
        action: 'reload',
        contactListId,
      }),
    );
    events.on('contactListItem.importProgress', ({ companyId, progress }) =>
      this.emit({ companyId, admins: true }, 'ContactListItem', {
        action: 'progress',
        ...progress,
      }),
    );
    // Campaigns are admins' (campaigns:use), like their contact lists.
    events.on('campaign.saved', ({ companyId, action, record }) =>
      this.emit({ companyId, admins: true }, 'campaign', { action, record }),
    );
    events.on('campaign.deleted', ({ companyId, id }) =>
      this.emit({ companyId, admins: true }, 'campaign', { action: 'delete', id }),
    );
    // File lists are admins' (files:manage).
    events.on('fileList.saved', ({ companyId, action, record }) =>
      this.emit({ companyId, admins: true }, 'file', { action, files: record }),
    );
    events.on('fileList.deleted', ({ companyId, id }) =>
      this.emit({ companyId, admins: true }, 'file', { action: 'delete', fileId: id }),
    );
    // A chat is heard by its members only, through their own rooms.
    const chatMembers = (companyId: number, userIds: number[]): Audience => ({
      companyId,
      userIds,
    });
    const memberIds = (chat: { users: { userId: number }[] }) =>
      chat.users.map((member) => member.userId);
    events.on('chat.saved', ({ companyId, action, chat, removedUserIds }) => {
      this.emit(chatMembers(companyId, memberIds(chat)), 'chat', { action, record: chat, chat });
      if (removedUserIds?.length) {
        this.emit(chatMembers(companyId, removedUserIds), 'chat', {
          action: 'delete',
          id: chat.id,
        });
      }
    });
    events.on('chat.message', ({ companyId, message, chat }) =>
      this.emit(chatMembers(companyId, memberIds(chat)), 'chat', {
        action: 'new-message',
        newMessage: message,
        chat,
      }),
    );
    events.on('chat.deleted', ({ companyId, chatId, memberIds: ids }) =>
      this.emit(chatMembers(companyId, ids), 'chat', { action: 'delete', id: chatId }),
    );
    events.on('queue.deleted', ({ companyId, queueId }) =>
      this.emit({ companyId, everyone: true }, 'queue', { action: 'delete', queueId }),
    );
  }
}
