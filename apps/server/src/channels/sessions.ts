import { randomUUID } from 'node:crypto';
import type { ProviderName } from '@atendi/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { InstanceBus } from '../platform/instance-bus';
import type { LeaseKeeper } from '../platform/leases';
import type { Metrics } from '../platform/metrics';
import { CHANNEL_COMMANDS, type ChannelCommand, type DeferredCommand } from './commands';
import type {
  ChannelProvider,
  ChannelSession,
  ConnectionRef,
  OutboundMessage,
  SentMessage,
} from './provider';

export type ChatQueues = Map<string, Promise<unknown>>;

export interface Running {
  ref: ConnectionRef;
  provider: ProviderName;
  session: ChannelSession;
  /** The tail of each chat's queue: one chat's messages are stored in the order they came. */
  chats: ChatQueues;
}

export class ChannelNotRunningError extends Error {}

const REPLIES = 'atendi_channel_replies';

/** A command's answer from the owner, to the instance that asked. */
interface Reply {
  replyTo: string;
  error?: string;
  /** What a question (which numbers have an account) was answered. */
  result?: Record<string, boolean>;
}

export interface ChannelSessionsOptions {
  /** How long a request to the owner (a deletion) waits for its answer (10 s). */
  requestTimeoutMs?: number;
}

/**
 * The channels as the rest of the server reaches them: through a session this instance runs,
 * or through a command on the bus to the instance that owns the connection. Which sessions run
 * here is the ChannelManager's business; this only finds them, so what sends (the outbound
 * sender) never depends on what hands reports over (the manager and its sink).
 */
export class ChannelSessions {
  /** Written by the ChannelManager as it starts and stops sessions. */
  readonly running = new Map<number, Running>();
  readonly #providers: Map<ProviderName, ChannelProvider>;
  readonly #replies = new Map<string, (reply: Reply) => void>();
  readonly #pending = new Set<Promise<unknown>>();
  /** Sends handed to a session of this instance and not answered yet. */
  readonly #sending = new Set<Promise<unknown>>();
  #closed = false;

  constructor(
    private readonly deps: {
      providers: ChannelProvider[];
      bus: InstanceBus;
      leases: LeaseKeeper;
      log: FastifyBaseLogger;
      metrics?: Pick<Metrics, 'inbound' | 'outbound'>;
    },
    private readonly options: ChannelSessionsOptions = {},
  ) {
    this.#providers = new Map(deps.providers.map((provider) => [provider.name, provider]));
  }

  provider<T extends ChannelProvider>(name: ProviderName): T | undefined {
    return this.#providers.get(name) as T | undefined;
  }

  /** Hears the owners' answers to this instance's requests. */
  open(): Promise<void> {
    return this.deps.bus.subscribe(REPLIES, (payload) => {
      try {
        const reply = JSON.parse(payload) as Reply;
        this.#replies.get(reply.replyTo)?.(reply);
      } catch {}
    });
  }

  /** Tells every instance (this one included) about a command; the owner carries it out. */
  publish(command: ChannelCommand): Promise<void> {
    return this.deps.bus.notify(CHANNEL_COMMANDS, JSON.stringify(command));
  }

  /** The owner's answer to a request (`replyTo`) of another instance. */
  answer(
    replyTo: string,
    error: string | undefined,
    result?: Record<string, boolean>,
  ): Promise<void> {
    return this.deps.bus.notify(
      REPLIES,
      JSON.stringify({ replyTo, error, result } satisfies Reply),
    );
  }

  isRunningHere(connectionId: number): boolean {
    return this.running.has(connectionId);
  }

  async send(connectionId: number, message: OutboundMessage): Promise<SentMessage> {
    const running = this.running.get(connectionId);
    if (!running) throw new ChannelNotRunningError();
    const sending = running.session.send(message);
    this.#sending.add(sending);
    void sending.then(
      () => this.#sending.delete(sending),
      () => this.#sending.delete(sending),
    );
    try {
      const sent = await sending;
      this.deps.metrics?.outbound(running.provider, 'sent');
      return sent;
    } catch (error) {
      this.deps.metrics?.outbound(running.provider, 'failed');
      throw error;
    }
  }

  /** Counts what a provider received, by what became of it (stored, duplicate, ...). */
  async countInbound<T>(provider: ProviderName, work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.deps.metrics?.inbound(provider, typeof result === 'string' ? result : 'stored');
      return result;
    } catch (error) {
      this.deps.metrics?.inbound(provider, 'failed');
      throw error;
    }
  }

  /**
   * Deletes a sent message for everyone through the connection's owner: this instance's session,
   * or the owner's, asked through a command whose answer is awaited.
   */
  async deleteMessage(
    connectionId: number,
    message: { chatId: string; providerMessageId: string; fromMe: boolean },
  ): Promise<void> {
    const running = this.running.get(connectionId);
    if (running) {
      await running.session.deleteMessage(message);
      return;
    }
    await this.#ask(connectionId, (replyTo) =>
      this.publish({ connectionId, action: 'delete', replyTo, ...message }),
    );
  }

  /**
   * Which of the numbers have an account on the network, asked where the connection runs (here,
   * or its owner through a command). Undefined when the network cannot tell (the Cloud API).
   */
  async whatsappNumbers(
    connectionId: number,
    numbers: string[],
  ): Promise<Map<string, boolean> | undefined> {
    const running = this.running.get(connectionId);
    if (running) return running.session.whatsappNumbers?.(numbers);
    const reply = await this.#ask(connectionId, (replyTo) =>
      this.publish({ connectionId, action: 'whatsappNumbers', replyTo, numbers }),
    );
    return reply.result ? new Map(Object.entries(reply.result)) : undefined;
  }

  /** A request to the connection's owner and its answer (a failure it reports is thrown). */
  async #ask(connectionId: number, request: (replyTo: string) => Promise<void>): Promise<Reply> {
    if (!(await this.deps.leases.isHeld(connectionId))) throw new ChannelNotRunningError();
    const replyTo = randomUUID();
    const answered = new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#replies.delete(replyTo);
        reject(new ChannelNotRunningError('the connection owner did not answer'));
      }, this.options.requestTimeoutMs ?? 10_000);
      this.#replies.set(replyTo, (reply) => {
        clearTimeout(timer);
        this.#replies.delete(replyTo);
        resolve(reply);
      });
    });
    await request(replyTo);
    const reply = await answered;
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply;
  }

  /**
   * Carries out a command (read receipts, a deletion for everyone) through this instance's
   * session; ChannelNotRunningError when the connection does not run here.
   */
  async perform(connectionId: number, command: DeferredCommand): Promise<void> {
    const running = this.#closed ? undefined : this.running.get(connectionId);
    if (!running) throw new ChannelNotRunningError();
    if (command.action === 'read') {
      if (command.receipt.messages.length > 0) await running.session.markRead?.(command.receipt);
      return;
    }
    const { chatId, providerMessageId, fromMe } = command;
    await running.session.deleteMessage({ chatId, providerMessageId, fromMe });
  }

  /** The chat's profile picture through this instance's session, if it runs here. */
  async profilePicture(
    connectionId: number,
    chat: { chatId: string; isGroup: boolean },
  ): Promise<Buffer | undefined> {
    const running = this.running.get(connectionId);
    if (!running?.session.profilePicture) return undefined;
    return running.session.profilePicture(chat);
  }

  /** Background work of the channels (e.g. storing a picture) that closing waits for. */
  track(work: Promise<unknown>): void {
    this.hold(
      work.then(
        () => undefined,
        (error) => this.deps.log.warn({ err: error }, 'channel background work failed'),
      ),
    );
  }

  /** Work that settles by itself (it never rejects) and that closing waits for. */
  hold(work: Promise<unknown>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** Waits for the sends under way in this instance's sessions (a hand-over lets them finish). */
  async sendsSettled(): Promise<void> {
    await Promise.allSettled([...this.#sending]);
  }

  /** Waits for the background work started so far. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  /** No more background work is started (read receipts are dropped). */
  close(): void {
    this.#closed = true;
  }
}
