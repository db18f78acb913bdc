import type { CompanySchedule } from '@atendi/shared';
import { globalDb } from '../../db/global';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import { openingHoursOf } from '../companies/companies.service';
import type { ServiceDeps } from '../deps';
import type { OutboundSender } from '../messages/messages.outbound';
import { resolveVariables } from '../messages/messages.variables';
import type { PromptsService } from '../prompts/prompts.service';
import type { QueueIntegrationsService } from '../queue-integrations/queue-integrations.service';
import { companySettings } from '../settings/settings.values';
import type { TicketLifecycle } from '../tickets/tickets.lifecycle';
import { type BotStage, botStep } from './automations.bot';
import { isOpen, nextOpening } from './automations.hours';
import {
  advanceBot,
  type BotTicket,
  type BotWrite,
  botTicket,
  companiesWithTimers,
  connectionMenus,
  endStaleRatings,
  expiredTickets,
  idleBotTickets,
  latestAnswer,
  queueHours,
  releaseFromBot,
  turnMayAct,
} from './automations.repository';

export const BOT_TURN_JOB = 'bot-turn';
export const SWEEP_JOB = 'automations-sweep';
/** A rating question not answered within this long is dropped. */
export const RATING_WINDOW_MS = 2 * 60 * 60_000;
/** An out-of-hours period that never ends (no day opens): answered once. */
const NEVER = new Date('9999-12-31T00:00:00Z');

interface TurnPlan {
  replies: string[];
  write: BotWrite;
}

/** The settings a turn reads, in one query. */
const TURN_SETTINGS = ['scheduleType', 'sendGreetingMessageOneQueues', 'timezone'] as const;
type TurnSettings = Record<(typeof TURN_SETTINGS)[number], string>;

/**
 * What happens to conversations without a person: the chatbot's turns, business hours and the
 * timers (idle bot transfer, the bot's time limit, inactivity close, the rating window). Every
 * turn and every timer runs on the job engine, so it survives a restart and runs once across
 * instances; the bot's state lives on the ticket row.
 */
export class AutomationsService {
  constructor(
    private readonly platform: Pick<ServiceDeps, 'db' | 'events' | 'jobs' | 'config'>,
    private readonly outbound: Pick<OutboundSender, 'send'>,
    private readonly tickets: Pick<TicketLifecycle, 'closeForInactivity' | 'announce'>,
    /** The AI's turn, for tickets a prompt answers (its connection's, or its queue's). */
    private readonly ai?: Pick<PromptsService, 'promptFor' | 'respond'>,
    /** The bots' turn (typebot, dialogflow), for tickets whose connection or queue names one. */
    private readonly bots?: Pick<QueueIntegrationsService, 'botFor' | 'respond'>,
  ) {
    platform.jobs.define<{ companyId: number; ticketId: number }>(BOT_TURN_JOB, {
      // Messages that arrive while a turn waits are answered by that one turn.
      policy: 'short',
      retryLimit: 3,
      handler: ({ companyId, ticketId }) => this.turn(companyId, ticketId),
    });
    // A sweep asked for by hand may name its time; the schedule's ticks do not.
    platform.jobs.define<{ at?: string }>(SWEEP_JOB, {
      policy: 'short',
      retryLimit: 1,
      handler: ({ at }) => this.sweep(at ? new Date(at) : new Date()),
    });
    platform.jobs.every(SWEEP_JOB, '* * * * *');
    platform.events.on('message.saved', ({ companyId, action, message, ticket, followUp }) => {
      // A contact wrote in a ticket nobody holds: the bot or the hours may have to answer.
      if (action !== 'create' || message.fromMe || ticket.isGroup) return;
      if (ticket.status !== 'pending' || ticket.userId || !ticket.whatsappId) return;
      // Read with the message: nothing the bots could do (no prompt, integration, menu or hours).
      if (followUp && !followUp.botTurnMayAct) return;
      void this.#askForTurn(companyId, ticket.id, followUp?.botTurnMayAct).catch(() => {
        // Lost only with the database unreachable; the next message asks again.
      });
    });
  }

  #db(companyId: number): TenantDb {
    return tenantDb(systemContext(this.platform.db, companyId));
  }

  /** A turn is queued only when it could do something: most tickets have nothing to answer. */
  async #askForTurn(companyId: number, ticketId: number, mayAct?: boolean): Promise<void> {
    if (!(mayAct ?? (await turnMayAct(this.#db(companyId), ticketId)))) return;
    await this.platform.jobs.send(
      BOT_TURN_JOB,
      { companyId, ticketId },
      { singletonKey: String(ticketId), delayMs: this.platform.config.BOT_REPLY_DELAY_MS },
    );
  }

  /**
   * One turn: the contact's newest unanswered message against where the ticket stands. The
   * outcome is written only if no other turn answered those messages first, then sent.
   */
  async turn(companyId: number, ticketId: number, now = new Date()): Promise<void> {
    const db = this.#db(companyId);
    for (let attempt = 0; attempt < 3; attempt++) {
      const ticket = await botTicket(db, ticketId);
      if (ticket?.status !== 'pending' || ticket.userId || ticket.isGroup) return;
      if (!ticket.connectionId) return;
      const answer = await latestAnswer(db, ticketId, ticket.botMessageId);
      if (!answer) return;
      const prompt = await this.ai?.promptFor(db, ticketId);
      // A connection's prompt answers before any menu: the AI is the whole conversation.
      if (prompt?.by === 'connection') {
        if (!(await advanceBot(db, ticket, answer.id, {}))) continue;
        return this.ai!.respond(companyId, ticketId, prompt);
      }
      const bot = await this.bots?.botFor(db, ticketId);
      // So does a connection's bot: it answers before any menu.
      if (bot?.by === 'connection') {
        if (!(await advanceBot(db, ticket, answer.id, {}))) continue;
        return this.bots!.respond(companyId, ticketId, bot, answer.body);
      }
      const settings = await companySettings(db, TURN_SETTINGS);
      const plan = await this.#plan(db, ticket, ticket.connectionId, answer.body, settings, now);
      // Past the menus, in a queue with a prompt: the AI answers what the bot does not.
      if (prompt && plan.replies.length === 0 && Object.keys(plan.write).length === 0) {
        if (!(await advanceBot(db, ticket, answer.id, {}))) continue;
        return this.ai!.respond(companyId, ticketId, prompt);
      }
      // Past the menus, in a queue with a bot integration: the bot answers.
      if (bot && plan.replies.length === 0 && Object.keys(plan.write).length === 0) {
        if (!(await advanceBot(db, ticket, answer.id, {}))) continue;
        return this.bots!.respond(companyId, ticketId, bot, answer.body);
      }
      if (!(await advanceBot(db, ticket, answer.id, plan.write))) continue;
      for (const reply of plan.replies) {
        const body = resolveVariables(reply, {
          contactName: ticket.contactName,
          ticketId,
          ticketCreatedAt: ticket.createdAt,
          timeZone: settings.timezone,
        });
        // A failed send stays on the message (ack 0) for a person to retry.
        await this.outbound
          .send(systemContext(this.platform.db, companyId), ticketId, { body })
          .catch(() => undefined);
      }
      if (plan.write.queueId !== undefined && plan.write.queueId !== ticket.queueId) {
        await this.tickets.announce(db, ticketId, {
          status: 'pending',
          queueId: ticket.queueId,
          userId: null,
        });
        // Entering a queue with a bot integration: the bot takes the conversation from here.
        const entered = plan.write.queueId ? await this.bots?.botFor(db, ticketId) : undefined;
        if (entered?.by === 'queue') {
          return this.bots!.respond(companyId, ticketId, entered, answer.body);
        }
      } else if (plan.write.chatbot !== undefined && plan.write.chatbot !== ticket.chatbot) {
        await this.tickets.announce(db, ticketId);
      }
      return;
    }
  }

  async #plan(
    db: TenantDb,
    ticket: BotTicket,
    connectionId: number,
    answer: string,
    settings: TurnSettings,
    now: Date,
  ): Promise<TurnPlan> {
    const zone = settings.timezone;
    const menus = await connectionMenus(db, connectionId);
    if (!menus) return { replies: [], write: {} };

    if (settings.scheduleType === 'company') {
      const hours = await openingHoursOf(globalDb(this.platform), db.companyId);
      if (!isOpen(hours, now, zone)) {
        return outOfHours(ticket, menus.outOfHoursMessage, hours, now, zone);
      }
    }

    const stage: BotStage = {
      queueId: ticket.queueId,
      optionId: ticket.queueOptionId,
      chatbot: ticket.chatbot,
      rounds: ticket.rounds,
    };
    const step = botStep(stage, answer, {
      greeting: menus.greetingMessage,
      queues: menus.queues,
      maxRounds: Math.max(1, menus.maxUseBotQueues),
      straightIntoOnlyQueue: settings.sendGreetingMessageOneQueues === 'enabled',
    });
    if (!step) {
      // Not the bot's: a ticket waiting in its queue hears the queue's hours.
      if (settings.scheduleType === 'queue' && ticket.queueId) {
        const queue = await queueHours(db, ticket.queueId);
        if (queue?.schedules.length && !isOpen(queue.schedules, now, zone)) {
          return outOfHours(ticket, queue.outOfHoursMessage, queue.schedules, now, zone);
        }
      }
      return { replies: [], write: {} };
    }

    const { next } = step;
    const write: BotWrite = {
      queueId: next.queueId,
      queueOptionId: next.optionId,
      chatbot: next.chatbot,
      amountUsedBotQueues: next.rounds,
      botAt: next.chatbot ? now : null,
      botSince: next.chatbot ? (ticket.botSince ?? now) : null,
    };
    const entered = step.enteredQueue
      ? menus.queues.find((queue) => queue.id === step.enteredQueue?.id)
      : undefined;
    if (
      entered &&
      settings.scheduleType === 'queue' &&
      entered.schedules.length &&
      !isOpen(entered.schedules, now, zone)
    ) {
      // A closed queue answers with its out-of-hours message instead of its menu; the ticket
      // waits in it for the next opening.
      const closed = outOfHours(ticket, entered.outOfHoursMessage, entered.schedules, now, zone);
      return {
        replies: closed.replies,
        write: {
          ...write,
          ...closed.write,
          queueOptionId: null,
          chatbot: false,
          botAt: null,
          botSince: null,
        },
      };
    }
    return { replies: step.replies, write };
  }

  /**
   * The timers, once a minute across every instance: idle bot tickets go to the connection's
   * transfer queue, the bot lets go after its time limit, idle conversations close, and old
   * rating questions end.
   */
  async sweep(now = new Date()): Promise<void> {
    for (const companyId of await companiesWithTimers(globalDb(this.platform))) {
      const db = this.#db(companyId);
      for (const idle of await idleBotTickets(db, now)) {
        const transfer =
          idle.timeToTransfer > 0 &&
          idle.transferQueueId !== null &&
          idle.botAt !== null &&
          idle.botAt.getTime() < now.getTime() - idle.timeToTransfer * 60_000;
        const released = await releaseFromBot(
          db,
          idle.id,
          idle.botAt!,
          transfer ? idle.transferQueueId : undefined,
        );
        if (released) {
          await this.tickets.announce(db, idle.id, {
            status: 'pending',
            queueId: idle.queueId,
            userId: null,
          });
        }
      }
      for (const expired of await expiredTickets(db, now)) {
        await this.tickets.closeForInactivity(companyId, expired.id, expired.message);
      }
      await endStaleRatings(db, new Date(now.getTime() - RATING_WINDOW_MS));
    }
  }
}

/**
 * The out-of-hours answer, once per closed period: the period is named by when it ends, so a
 * second message before the next opening gets no second answer.
 */
function outOfHours(
  ticket: Pick<BotTicket, 'outOfHoursUntil'>,
  message: string,
  hours: readonly CompanySchedule[],
  now: Date,
  zone: string,
): TurnPlan {
  const answered = ticket.outOfHoursUntil && ticket.outOfHoursUntil.getTime() > now.getTime();
  if (answered) return { replies: [], write: {} };
  const until = nextOpening(hours, now, zone) ?? NEVER;
  return { replies: message.trim() ? [message] : [], write: { outOfHoursUntil: until } };
}
