import { hasRole, type Ticket, type TicketStatus } from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import type { TicketAudienceBefore } from '../../platform/events';
import type { Platform } from '../../platform/platform';
import type { OutboundSender } from '../messages/messages.outbound';
import { resolveVariables } from '../messages/messages.variables';
import { companySetting } from '../settings/settings.values';
import {
  closingTexts,
  insertLiveTicket,
  liveTicketOf,
  markRatingRequested,
  mediaOfContact,
  moveTicket,
  type TicketChanges,
  ticketAnswerers,
  ticketById,
  ticketsOfContact,
} from './tickets.repository';

/**
 * The tickets module's face: how every other module reads a ticket and how any module opens or
 * moves one. Each move is applied only if the ticket is still as it was read, and each announces
 * the ticket once (`ticket.saved`), after its commit. The queries stay in tickets.repository.ts,
 * which no other module imports; what a caller may read is tickets.access.ts.
 */

const LIVE: TicketStatus[] = ['open', 'pending'];

/** The rating question after the queue's or connection's own text (spec core 9: rating 1-3). */
export const RATING_OPTIONS =
  'Digite de 1 a 3 para qualificar nosso atendimento:\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_';

/**
 * The rating question sent on closing: the connection's (or queue's) own rating message, then the
 * scale, unless that message already asks for a 1 to 3 itself (it names both ends).
 */
export function ratingQuestion(own: string | null | undefined): string {
  const text = own?.trim() ?? '';
  if (/(^|\D)1(\D|$)/.test(text) && /(^|\D)3(\D|$)/.test(text)) return text;
  return [text, RATING_OPTIONS].filter(Boolean).join('\n\n');
}

/** What a ticket leaving the bot's hands clears. */
const NO_BOT = { chatbot: false, botAt: null, botSince: null } as const;

/** The live ticket a contact already has, answered so the client can show who holds it. */
export const otherOpenTicket = (ticket: Ticket | undefined) =>
  new AppError('ERR_OTHER_OPEN_TICKET', 409, ticket ? { ticket } : {});

/** A ticket as the lists and the conversation header show it (no caller's check: see access). */
export const ticketOf = (db: TenantDb, id: number): Promise<Ticket | undefined> =>
  ticketById(db, id);

/** Every ticket of a contact, as the lists show them. */
export const ticketsOf = (db: TenantDb, contactId: number): Promise<Ticket[]> =>
  ticketsOfContact(db, contactId);

/** Storage keys of the media of a contact's tickets, to remove once its rows are gone. */
export const mediaOfContactTickets = (db: TenantDb, contactId: number): Promise<string[]> =>
  mediaOfContact(db, contactId);

/**
 * What a ticket's connection and queue name to answer it (a prompt, a bot integration), with
 * when a bot last handed it to a person: the connection's ahead of the queue's for both.
 */
export const answerersOf = (db: TenantDb, ticketId: number) => ticketAnswerers(db, ticketId);

/** Who a live ticket is opened for: its contact on a connection, pending unless a user holds it. */
export interface LiveTicketFor {
  contact: { id: number; isGroup: boolean };
  whatsappId: number;
  /** Opened open for this user; pending, in nobody's hands, without one. */
  userId?: number | null;
}

/** A contact's live ticket on a connection, and whether this call opened it. */
export interface LiveTicket {
  ticket: Ticket;
  opened: boolean;
}

/** A ticket a person starts (POST /tickets), already checked by the tickets service. */
export interface TicketStart {
  contact: { id: number; isGroup: boolean };
  whatsappId: number;
  queueId: number | null;
  userId: number | null;
  status: TicketStatus;
}

/** A transfer asked for, already checked: the queue, the agent (or none), the connection. */
export interface TicketTransfer {
  queue: { id: number; name: string };
  user: { id: number; name: string } | undefined;
  whatsappId: number | null;
  /** The status asked for with it, if any. */
  status: TicketStatus | undefined;
}

export class TicketLifecycle {
  constructor(
    private readonly platform: Pick<Platform, 'db' | 'events'>,
    private readonly outbound: Pick<OutboundSender, 'send'>,
  ) {}

  /**
   * The contact's live ticket on the connection, found, or opened when there is none: one live
   * ticket per contact and connection, decided by the partial unique index
   * tickets_one_live_per_contact when two open it at once (a schedule, a campaign, the external
   * API and an inbound message). Runs in the caller's transaction: announce what it opened with
   * `announceOpened` once that committed. (The inbound statement writes the same rule in its
   * one round trip, from tickets.sql.ts.)
   */
  async liveTicket(db: TenantDb, to: LiveTicketFor): Promise<LiveTicket> {
    const found = await liveTicketOf(db, to.contact.id, to.whatsappId);
    if (found) return { ticket: found, opened: false };
    const userId = to.userId ?? null;
    const opened = await insertLiveTicket(db, {
      contactId: to.contact.id,
      whatsappId: to.whatsappId,
      queueId: null,
      userId,
      status: userId ? 'open' : 'pending',
      isGroup: to.contact.isGroup,
    });
    const ticket = await liveTicketOf(db, to.contact.id, to.whatsappId);
    if (!ticket) throw new AppError('ERR_CREATING_TICKET', 500);
    return { ticket, opened: opened !== undefined };
  }

  /** Announces a ticket `liveTicket` opened, once its transaction committed. */
  async announceOpened(db: TenantDb, live: { ticketId: number; opened: boolean }) {
    if (live.opened) await this.announce(db, live.ticketId);
  }

  /**
   * A ticket a person starts. One live ticket per contact: a second one answers
   * ERR_OTHER_OPEN_TICKET with the first; concurrent starts are decided by the partial unique
   * index tickets_one_live_per_contact.
   */
  async start(ctx: RequestContext, data: TicketStart): Promise<Ticket> {
    const db = tenantDb(ctx);
    const live = await liveTicketOf(db, data.contact.id);
    if (live) throw otherOpenTicket(live);
    const id = await insertLiveTicket(db, {
      contactId: data.contact.id,
      whatsappId: data.whatsappId,
      queueId: data.queueId,
      userId: data.userId,
      status: data.status,
      isGroup: data.contact.isGroup,
      acceptedAt: data.status === 'open' && data.userId ? new Date() : null,
    });
    if (!id) throw otherOpenTicket(await liveTicketOf(db, data.contact.id, data.whatsappId));
    return (await this.announce(db, id))!;
  }

  /** The caller takes a waiting ticket; the contact is greeted when the company asks for it. */
  async accept(ctx: RequestContext, current: Ticket): Promise<Ticket> {
    const db = tenantDb(ctx);
    await this.#move(db, current, { status: 'open', userId: ctx.userId });
    if (!current.isGroup && (await companySetting(db, 'sendGreetingAccepted')) === 'enabled') {
      await this.#tell(
        ctx,
        current,
        `{{greeting}} *{{contactName}}*, meu nome é *${ctx.name}* e agora vou prosseguir com seu atendimento!`,
      );
    }
    return (await this.announce(db, current.id, current))!;
  }

  /** Its holder (or an admin) gives an open ticket back to the waiting line. */
  async giveBack(ctx: RequestContext, current: Ticket): Promise<Ticket> {
    if (current.userId !== ctx.userId && !hasRole(ctx, 'admin')) throw forbidden();
    const db = tenantDb(ctx);
    await this.#move(db, current, { status: 'pending', userId: null });
    return (await this.announce(db, current.id, current))!;
  }

  /**
   * Closed by a person: the queue's (else the connection's) completion message and, with
   * `userRating` enabled, the rating question, whose answer the inbound statement takes.
   */
  async resolve(ctx: RequestContext, current: Ticket): Promise<Ticket> {
    if (current.status === 'closed') return current;
    const db = tenantDb(ctx);
    const userId = current.userId ?? ctx.userId;
    await this.#move(db, current, {
      status: 'closed',
      // A waiting ticket closed by an agent is that agent's closed ticket.
      userId,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    if (!current.isGroup) {
      const texts = await closingTexts(db, current.id);
      if (texts.completion) await this.#tell(ctx, current, texts.completion);
      if (userId && (await companySetting(db, 'userRating')) === 'enabled') {
        // The contact's 1-3 lands on this closed ticket (the inbound statement looks for it).
        await markRatingRequested(db, current.id);
        await this.#tell(ctx, current, ratingQuestion(texts.rating));
      }
    }
    return (await this.announce(db, current.id, current))!;
  }

  /** A closed ticket live again: open in the caller's hands, or waiting. */
  async reopen(ctx: RequestContext, current: Ticket, target: TicketStatus): Promise<Ticket> {
    const db = tenantDb(ctx);
    await this.#move(db, current, {
      status: target,
      userId: target === 'open' ? ctx.userId : null,
    });
    return (await this.announce(db, current.id, current))!;
  }

  /**
   * To another queue, agent or connection. With no agent the ticket waits in the new queue; an
   * agent gets it as it was (a waiting ticket stays waiting for that agent to accept). The
   * contact hears of it when the company asks for it.
   */
  async transfer(ctx: RequestContext, current: Ticket, to: TicketTransfer): Promise<Ticket> {
    const db = tenantDb(ctx);
    const userId = to.user?.id ?? null;
    const status: TicketStatus = !userId
      ? 'pending'
      : to.status && to.status !== 'closed'
        ? to.status
        : current.status === 'pending'
          ? 'pending'
          : 'open';
    await this.#move(db, current, {
      status,
      userId,
      queueId: to.queue.id,
      whatsappId: to.whatsappId,
    });
    const movedQueue = to.queue.id !== current.queueId;
    const movedUser = userId !== null && userId !== current.userId;
    if (
      (movedQueue || movedUser) &&
      !current.isGroup &&
      (await companySetting(db, 'sendMsgTransfTicket')) === 'enabled'
    ) {
      await this.#tell(
        ctx,
        current,
        to.user && movedUser
          ? `*Mensagem Automática*:\nVocê foi transferido para o atendente *${to.user.name}*\naguarde, já vamos te atender!`
          : `*Mensagem Automática*:\nVocê foi transferido para o departamento *${to.queue.name}*\naguarde, já vamos te atender!`,
      );
    }
    return (await this.announce(db, current.id, current))!;
  }

  /**
   * A conversation whose contact stopped answering (the connection's `expiresTicket`): the
   * connection's message, then closed. Run by the automations' sweep.
   */
  async closeForInactivity(companyId: number, ticketId: number, message: string) {
    const ctx = systemContext(this.platform.db, companyId);
    const db = tenantDb(ctx);
    const current = await ticketById(db, ticketId);
    if (!current || !LIVE.includes(current.status)) return;
    if (message.trim()) await this.#tell(ctx, current, message);
    const closed = await moveTicket(db, current.id, current.status, {
      status: 'closed',
      finishedAt: new Date(),
      ...NO_BOT,
    }).catch(() => false);
    if (closed) await this.announce(db, current.id, current);
  }

  /**
   * Tells the lists, the rooms and the integrations that a ticket changed, once, with who could
   * see it before (`before`), so rooms that lose it drop it. Modules that change a ticket's bot
   * state or tags announce it through here too.
   */
  async announce(
    db: TenantDb,
    ticketId: number,
    before?: TicketAudienceBefore,
  ): Promise<Ticket | undefined> {
    const ticket = await ticketById(db, ticketId);
    if (!ticket) return undefined;
    this.platform.events.emit('ticket.saved', {
      companyId: db.companyId,
      action: 'update',
      ticket,
      ...(before
        ? { previous: { status: before.status, queueId: before.queueId, userId: before.userId } }
        : {}),
    });
    return ticket;
  }

  /**
   * Applies a person's transition only if the ticket is still as it was read, so two agents
   * accepting at once do not both win. A live ticket that already exists for the contact on the
   * target connection answers ERR_OTHER_OPEN_TICKET.
   */
  async #move(db: TenantDb, current: Ticket, set: TicketChanges) {
    let moved: boolean;
    try {
      // A person's move ends the bot's hold and any rating question still waiting.
      moved = await moveTicket(db, current.id, current.status, {
        ...set,
        ...NO_BOT,
        ratingRequestedAt: null,
        ...timesOf(set),
      });
    } catch (error) {
      if (isUniqueViolation(error, 'tickets_one_live_per_contact')) {
        throw otherOpenTicket(
          await liveTicketOf(db, current.contactId, set.whatsappId ?? current.whatsappId),
        );
      }
      throw error;
    }
    if (!moved) {
      const now = await ticketById(db, current.id);
      if (now && LIVE.includes(now.status)) throw otherOpenTicket(now);
      throw new AppError('ERR_NO_TICKET_FOUND', 404);
    }
  }

  /** An automatic message to the contact; a failed send stays visible on the message itself. */
  async #tell(ctx: RequestContext, ticket: Ticket, text: string) {
    const body = resolveVariables(text, {
      contactName: ticket.contact.name,
      ticketId: ticket.id,
      ticketCreatedAt: new Date(ticket.createdAt),
      timeZone: text.includes('{{') ? await companySetting(tenantDb(ctx), 'timezone') : undefined,
    });
    await this.outbound.send(ctx, ticket.id, { body }).catch(() => undefined);
  }
}

/**
 * The dashboard's times: a person taking the ticket open marks its first acceptance (kept once
 * set, see moveTicket), a close marks its finish, and a live ticket has none.
 */
function timesOf(set: TicketChanges): Pick<TicketChanges, 'acceptedAt' | 'finishedAt'> {
  const now = new Date();
  if (set.status === 'closed') return { finishedAt: now };
  return {
    finishedAt: null,
    ...(set.status === 'open' && set.userId ? { acceptedAt: now } : {}),
  };
}
