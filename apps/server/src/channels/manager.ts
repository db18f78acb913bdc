import type { ProviderName } from '@atendi/shared';
import type { FastifyBaseLogger } from 'fastify';
import { channelConnection, enabledConnections } from '../db/channel-queries';
import type { DbHandle } from '../db/tenant';
import type { InstanceBus } from '../platform/instance-bus';
import type { LeaseKeeper } from '../platform/leases';
import { CHANNEL_COMMANDS, type ChannelCommand } from './commands';
import type {
  AckUpdate,
  ChannelEvents,
  ConnectionRef,
  InboundChange,
  InboundMessage,
  StatusUpdate,
} from './provider';
import type { ChannelSessions, ChannelSessionsOptions, ChatQueues, Running } from './sessions';

/** Where the manager hands what providers report. */
export interface ChannelSink {
  inbound(connection: ConnectionRef, message: InboundMessage): Promise<unknown>;
  change(connection: ConnectionRef, change: InboundChange): Promise<void>;
  ack(connection: ConnectionRef, update: AckUpdate): Promise<void>;
  /** `epoch` is the lease's: a write under an older one (a lost lease) changes nothing. */
  status(connection: ConnectionRef, update: StatusUpdate, epoch?: number): Promise<void>;
  /** Sends a stored outbound message through a session of this instance. */
  sendStored(companyId: number, messageId: number): Promise<void>;
  /** Carries out a deferred command through a session of this instance. */
  runDeferred(companyId: number, commandId: number): Promise<void>;
}

/** A session's report after this instance lost the connection's lease: the new owner has it. */
export class LeaseLostError extends Error {}

export interface ChannelManagerOptions extends ChannelSessionsOptions {
  /** How often enabled connections nobody owns are looked for (5 s). */
  sweepMs?: number;
}

/**
 * Runs the sessions this instance owns. Ownership is a lease (an advisory lock); a sweep takes
 * over enabled connections nobody holds, so when an instance dies its connections move on.
 * Everything that starts or stops one connection's session runs one after another.
 */
export class ChannelManager {
  readonly #running: Map<number, Running>;
  /** Leased, waiting out a dead owner before starting. */
  readonly #starting = new Map<number, NodeJS.Timeout>();
  /** Chat queues of connections whose webhooks this instance takes without owning them. */
  readonly #visiting = new Map<number, ChatQueues>();
  /** The tail of each connection's start and stop work. */
  readonly #lifecycle = new Map<number, Promise<unknown>>();
  #timer?: NodeJS.Timeout;
  #sweeping?: Promise<void>;
  #handingOver?: Promise<ConnectionRef[]>;
  #closed = false;

  constructor(
    private readonly deps: {
      db: DbHandle;
      leases: LeaseKeeper;
      bus: InstanceBus;
      sessions: ChannelSessions;
      sink: ChannelSink;
      log: FastifyBaseLogger;
    },
    private readonly options: ChannelManagerOptions = {},
  ) {
    this.#running = deps.sessions.running;
    deps.leases.onLost((connectionIds, error) => {
      if (connectionIds.length === 0) return;
      deps.log.error(
        { err: error, connectionIds },
        'lease session lost: stopping the sessions it covered',
      );
      for (const id of connectionIds) deps.sessions.track(this.#abandon(id));
    });
  }

  /**
   * Hears commands, takes the leases it can and starts their sessions (the bus is open). An
   * instance without the channels role (`takeLeases: false`) only hears the owners' answers to
   * its own requests: it never owns a connection.
   */
  async open({ takeLeases = true }: { takeLeases?: boolean } = {}): Promise<void> {
    if (!takeLeases) {
      await this.deps.sessions.open();
      return;
    }
    await this.deps.bus.subscribe(CHANNEL_COMMANDS, (payload) => {
      void this.command(JSON.parse(payload) as ChannelCommand);
    });
    await this.deps.sessions.open();
    await this.deps.leases.open();
    await this.sweep();
    this.#timer = setInterval(() => void this.sweep(), this.options.sweepMs ?? 5_000);
    this.#timer.unref();
  }

  /** Starts every enabled connection that no instance owns. */
  sweep(): Promise<void> {
    this.#sweeping ??= this.#sweep().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  async #sweep() {
    if (this.#closed) return;
    try {
      const wanted = await enabledConnections(this.deps.db);
      for (const row of wanted) {
        if (this.#closed) return;
        if (this.#running.has(row.id) || this.#starting.has(row.id)) continue;
        if (!this.deps.sessions.provider(row.provider as ProviderName)) continue;
        const ref = { id: row.id, companyId: row.companyId, name: row.name };
        await this.#serial(row.id, () => this.#take(ref, row.provider as ProviderName));
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'channel sweep failed');
    }
  }

  /** Takes the lease if nobody holds it and starts the session (later, if its owner died). */
  async #take(ref: ConnectionRef, provider: ProviderName, renew = false) {
    if (this.#closed || this.#running.has(ref.id) || this.#starting.has(ref.id)) return;
    const lease = await this.deps.leases.acquire(ref.id);
    if (!lease) return;
    if (lease.waitMs === 0) {
      await this.#startLocal(ref, provider, renew);
      return;
    }
    const timer = setTimeout(() => {
      this.deps.sessions.track(
        this.#serial(ref.id, async () => {
          if (this.#starting.get(ref.id) !== timer) return;
          this.#starting.delete(ref.id);
          if (!this.#closed && this.deps.leases.holds(ref.id)) {
            await this.#startLocal(ref, provider, renew);
          }
        }),
      );
    }, lease.waitMs);
    timer.unref();
    this.#starting.set(ref.id, timer);
  }

  /** Runs `work` after the earlier start and stop work of the same connection. */
  #serial<T>(connectionId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.#lifecycle.get(connectionId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.#lifecycle.set(connectionId, tail);
    void tail.then(() => {
      if (this.#lifecycle.get(connectionId) === tail) this.#lifecycle.delete(connectionId);
    });
    return next;
  }

  /** A command published by any instance; only the owner acts on it. */
  command(command: ChannelCommand): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const work = this.#command(command).catch((error) =>
      this.deps.log.error({ err: error, command }, 'channel command failed'),
    );
    this.deps.sessions.hold(work);
    return work;
  }

  async #command(command: ChannelCommand): Promise<void> {
    const id = command.connectionId;
    switch (command.action) {
      case 'send':
        if (this.#running.has(id)) {
          await this.deps.sink.sendStored(command.companyId, command.messageId);
        }
        return;
      case 'deferred':
        if (this.#running.has(id)) {
          await this.deps.sink.runDeferred(command.companyId, command.commandId);
        }
        return;
      case 'delete': {
        const running = this.#running.get(id);
        if (!running) return;
        const { chatId, providerMessageId, fromMe, replyTo } = command;
        const error = await running.session
          .deleteMessage({ chatId, providerMessageId, fromMe })
          .then(
            () => undefined,
            (failure: unknown) => (failure instanceof Error ? failure.message : String(failure)),
          );
        await this.deps.sessions.answer(replyTo, error);
        return;
      }
      case 'whatsappNumbers': {
        const running = this.#running.get(id);
        if (!running) return;
        const outcome = await Promise.resolve(
          running.session.whatsappNumbers?.(command.numbers),
        ).then(
          (found) => ({ result: found ? Object.fromEntries(found) : undefined }),
          (failure: unknown) => ({
            error: failure instanceof Error ? failure.message : String(failure),
          }),
        );
        await this.deps.sessions.answer(
          command.replyTo,
          'error' in outcome ? outcome.error : undefined,
          'result' in outcome ? outcome.result : undefined,
        );
        return;
      }
      case 'start':
        if (!this.#running.has(id)) await this.sweep();
        return;
      case 'restart':
        if (this.#running.has(id)) await this.#serial(id, () => this.#stopLocal(id, false));
        await this.sweep();
        return;
      case 'stop':
      case 'logout':
        await this.#serial(id, () => this.#stopLocal(id, command.action === 'logout'));
        return;
      case 'renew':
        await this.#serial(id, () => this.#renew(id));
        return;
    }
  }

  /**
   * What a connection reports from outside a session of this instance (a Cloud API webhook
   * taken by whichever instance Meta reached): into the running session's chat queues when it
   * runs here, else into queues of their own, so each chat still keeps its order here.
   */
  eventsFor(
    ref: ConnectionRef,
    provider: ProviderName = 'cloud-api',
  ): Pick<ChannelEvents, 'inbound' | 'change' | 'ack'> {
    const { sink, sessions } = this.deps;
    const inOrder = (chatId: string, work: () => Promise<unknown>) => {
      const running = this.#running.get(ref.id);
      if (running) return this.#queue(running.chats, chatId, work);
      let visiting = this.#visiting.get(ref.id);
      if (!visiting) {
        visiting = new Map();
        this.#visiting.set(ref.id, visiting);
      }
      const queues = visiting;
      return this.#queue(queues, chatId, work).finally(() => {
        if (queues.size === 0 && this.#visiting.get(ref.id) === queues) {
          this.#visiting.delete(ref.id);
        }
      });
    };
    return {
      inbound: (message) =>
        inOrder(message.chatId, () =>
          sessions.countInbound(provider, () => sink.inbound(ref, message)),
        ),
      change: (change) => inOrder(change.chatId, () => sink.change(ref, change)),
      ack: (update) => sink.ack(ref, update),
    };
  }

  async #startLocal(ref: ConnectionRef, providerName: ProviderName, renew = false) {
    const provider = this.deps.sessions.provider(providerName)!;
    const { sink, leases } = this.deps;
    const epoch = leases.epoch(ref.id);
    if (epoch === undefined) return;
    if (renew) {
      // A new login: what the provider stored of the last one goes first.
      await provider.forget?.(ref);
    }
    const chats: ChatQueues = new Map();
    /** Reports of a session whose lease was lost are refused: the new owner takes them. */
    const fenced = <T>(work: () => Promise<T>): Promise<T> =>
      leases.epoch(ref.id) === epoch
        ? work()
        : Promise.reject(new LeaseLostError(`connection ${ref.id} is owned elsewhere now`));
    const session = provider.open(ref, {
      status: (update) => fenced(() => sink.status(ref, update, epoch)),
      inbound: (message) =>
        this.#queue(chats, message.chatId, () =>
          fenced(() =>
            this.deps.sessions.countInbound(providerName, () => sink.inbound(ref, message)),
          ),
        ),
      change: (change) =>
        this.#queue(chats, change.chatId, () => fenced(() => sink.change(ref, change))),
      ack: (update) => fenced(() => sink.ack(ref, update)),
    });
    const running: Running = { ref, provider: providerName, session, chats };
    this.#running.set(ref.id, running);
    try {
      await running.session.start();
    } catch (error) {
      this.deps.log.error({ err: error, connectionId: ref.id }, 'channel session failed to start');
      await this.#stopLocal(ref.id, false);
    }
  }

  async #stopLocal(connectionId: number, logout: boolean, release = true) {
    const waiting = this.#starting.get(connectionId);
    if (waiting) clearTimeout(waiting);
    this.#starting.delete(connectionId);
    const running = this.#running.get(connectionId);
    this.#running.delete(connectionId);
    try {
      await running?.session.stop({ logout });
    } finally {
      if (release) await this.deps.leases.release(connectionId);
    }
  }

  /** The lease went with the database session: the session stops at once (no lock to give). */
  #abandon(connectionId: number): Promise<void> {
    const waiting = this.#starting.get(connectionId);
    if (waiting) clearTimeout(waiting);
    this.#starting.delete(connectionId);
    const running = this.#running.get(connectionId);
    if (!running) return Promise.resolve();
    this.#running.delete(connectionId);
    return running.session.stop({ logout: false });
  }

  /**
   * A new login (PUT /whatsappsession): the owner stops the session, the provider forgets the
   * stored login and the session starts again (showing a new QR). When nobody runs it, the
   * instance that gets the lease does it.
   */
  async #renew(connectionId: number) {
    const running = this.#running.get(connectionId);
    if (running) {
      await this.#stopLocal(connectionId, false, false);
      await this.#startLocal(running.ref, running.provider, true);
      return;
    }
    const row = await channelConnection(this.deps.db, connectionId);
    if (!row?.sessionEnabled || !this.deps.sessions.provider(row.provider as ProviderName)) return;
    const ref = { id: row.id, companyId: row.companyId, name: row.name };
    await this.#take(ref, row.provider as ProviderName, true);
  }

  /** Runs `work` after the earlier work of the same chat, whatever became of it. */
  #queue<T>(chats: ChatQueues, chatId: string, work: () => Promise<T>): Promise<void> {
    const previous = chats.get(chatId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    chats.set(chatId, tail);
    void tail.then(() => {
      if (chats.get(chatId) === tail) chats.delete(chatId);
    });
    return next.then(() => undefined);
  }

  /**
   * Gives every connection back before the instance stops: no more takes, the commands under
   * way finish, each session stops once the messages it was storing are stored, and the leases
   * are released at once (the next owner need not wait out a heartbeat). The other instances
   * are told to sweep now rather than at their next turn. Commands heard later are for them.
   */
  handOver(): Promise<ConnectionRef[]> {
    this.#handingOver ??= this.#handOver();
    return this.#handingOver;
  }

  async #handOver(): Promise<ConnectionRef[]> {
    if (this.#timer) clearInterval(this.#timer);
    for (const timer of this.#starting.values()) clearTimeout(timer);
    this.#starting.clear();
    await this.deps.sessions.settle();
    this.#closed = true;
    await this.#sweeping;
    await Promise.allSettled([...this.#lifecycle.values()]);
    // Out of the map first: what is asked to send from now on goes to the next owner (or waits
    // for it as a pending message); the sends already handed to a session finish first.
    const handed = [...this.#running.values()];
    this.#running.clear();
    await this.deps.sessions.sendsSettled();
    await Promise.all(
      handed.map(async (running) => {
        await running.session.stop({ logout: false }).catch(() => {});
        await Promise.allSettled([...running.chats.values()]);
      }),
    );
    await this.deps.leases.close();
    for (const { ref } of handed) {
      const connectionId = ref.id;
      await this.deps.sessions
        .publish({ connectionId, action: 'start' })
        .catch((error) =>
          this.deps.log.warn({ err: error, connectionId }, 'hand-over not announced'),
        );
    }
    return handed.map(({ ref }) => ref);
  }

  async close(): Promise<void> {
    if (this.#handingOver) {
      await this.#handingOver;
      this.deps.sessions.close();
      await this.deps.sessions.settle();
      return;
    }
    if (this.#timer) clearInterval(this.#timer);
    for (const timer of this.#starting.values()) clearTimeout(timer);
    this.#starting.clear();
    await this.deps.sessions.settle();
    this.#closed = true;
    this.deps.sessions.close();
    await this.#sweeping;
    await Promise.allSettled([...this.#lifecycle.values()]);
    for (const id of [...this.#running.keys()]) {
      const running = this.#running.get(id);
      this.#running.delete(id);
      await running?.session.stop({ logout: false }).catch(() => {});
    }
    await this.deps.leases.close();
  }
}
