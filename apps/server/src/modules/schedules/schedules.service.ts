import {
  DEFAULT_PAGE_SIZE,
  parseDateTimeText,
  SCHEDULE_MEDIA_TYPES,
  type Schedule,
  type ScheduleCreate,
  type ScheduleListQuery,
  type ScheduleUpdate,
  scheduleCreateSchema,
  scheduleMediaFormSchema,
  scheduleUpdateSchema,
} from '@atendi/shared';
import { TZDate } from '@date-fns/tz';
import type { z } from 'zod';
import { globalDb } from '../../db/global';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { iso, isoRequired, page, sliceMore } from '../../platform/routes';
import {
  discardUploads,
  forgetStored,
  isMultipart,
  type MultipartSource,
  parseFields,
  readUploads,
  replaceAttachment,
} from '../../platform/uploads';
import type { ServiceDeps } from '../deps';
import { type OutboundSender, storePending } from '../messages/messages.outbound';
import { resolveVariables } from '../messages/messages.variables';
import { companySetting } from '../settings/settings.values';
import type { TicketLifecycle } from '../tickets/tickets.lifecycle';
import {
  claimDueSchedule,
  companiesWithDueSchedules,
  connectionExists,
  contactExists,
  deleteSchedule,
  deliveryState,
  dueSchedules,
  insertSchedule,
  recordScheduleMessage,
  type ScheduleWithContact,
  scheduleById,
  schedulesPage,
  sendingTarget,
  settleSchedule,
  settleScheduleOfMessage,
  updateUnsentSchedule,
} from './schedules.repository';

/** A schedule's stored image. */
type Media = { mediaPath: string; mediaName: string };

/** The schedule a form carries: the `scheduleData` JSON part, else its text fields. */
function formData(fields: Record<string, string>): unknown {
  const { scheduleData, file: _file, ...rest } = fields;
  if (scheduleData === undefined) return rest;
  try {
    return JSON.parse(scheduleData) as unknown;
  } catch {
    throw new AppError('ERR_VALIDATION', 400, {
      fields: [{ path: 'body.scheduleData', message: 'Invalid JSON' }],
    });
  }
}

export const SCHEDULE_SEND_JOB = 'schedule-send';
export const SCHEDULE_SWEEP_JOB = 'schedules-sweep';
/** Due schedules one sweep sends per company; the next minute takes the rest. */
const SWEEP_BATCH = 200;

/**
 * How long after its claim a schedule's job may still be retrying its send (pg-boss's backoff
 * from 5 s, three retries): the sweep leaves a failed one alone until then.
 */
const RETRY_WINDOW_MS = 5 * 60_000;

export type ScheduleSendOutcome = 'sent' | 'error' | 'not-due' | 'done' | 'handed-over';

/** The network refused a schedule's message; its job tries again. */
export class ScheduleSendError extends Error {
  constructor(scheduleId: number) {
    super(`schedule ${scheduleId}: its message could not be sent`);
    this.name = 'ScheduleSendError';
  }
}

const notFound = () => new AppError('ERR_NOT_FOUND', 404);
const alreadySent = () =>
  new AppError('ERR_VALIDATION', 400, {
    fields: [{ path: 'body.sentAt', message: 'A sent schedule cannot be changed' }],
  });

/** The instant a client's date-time names: its own offset, else the company's clock. */
export function instantOf(text: string, zone: string): Date {
  const parts = parseDateTimeText(text);
  if (!parts)
    throw new AppError('ERR_VALIDATION', 400, {
      fields: [{ path: 'body.sendAt', message: 'Invalid date' }],
    });
  if (parts.offset) return new Date(text.trim().replace(' ', 'T'));
  const local = new TZDate(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
    parts.millisecond,
    zone,
  );
  return new Date(local.getTime());
}

const mimeOfKey = (key: string) => (/\.png$/i.test(key) ? 'image/png' : 'image/jpeg');

/**
 * Scheduled messages: kept per company, each sent once at its time through the job engine (a
 * job delayed to its time, and a sweep every minute for jobs lost), in one commit with the
 * message it becomes, which the outbound sender then delivers.
 */
export class SchedulesService {
  constructor(
    private readonly platform: Pick<ServiceDeps, 'db' | 'events' | 'jobs' | 'storage'>,
    private readonly outbound: Pick<OutboundSender, 'sendStored' | 'retry'>,
    private readonly tickets: Pick<TicketLifecycle, 'liveTicket' | 'announceOpened'>,
  ) {
    platform.jobs.define<{ companyId: number; scheduleId: number }>(SCHEDULE_SEND_JOB, {
      // One waiting job per schedule and time: a repeat for the same time is dropped, a new time
      // gets its own job (the old one then finds the schedule not due and does nothing).
      policy: 'short',
      retryLimit: 3,
      // Many schedules fall due at the same minute; each send waits mostly on the database.
      concurrency: 4,
      handler: async ({ companyId, scheduleId }, { final }) => {
        const outcome = await this.send(companyId, scheduleId, new Date(), { final });
        // Woken a moment before its time (another clock): asked again for then.
        if (outcome === 'not-due') await this.#queueFor(companyId, scheduleId);
      },
    });
    platform.jobs.define<{ at?: string }>(SCHEDULE_SWEEP_JOB, {
      policy: 'short',
      retryLimit: 1,
      handler: ({ at }) => this.sweep(at ? new Date(at) : new Date()),
    });
    platform.jobs.every(SCHEDULE_SWEEP_JOB, '* * * * *');
    // A message handed to the instance that runs its connection is sent there: its schedule is
    // settled as soon as it is, not at the next sweep.
    platform.events.on('message.sent', ({ companyId, messageId }) => {
      void this.#settleSent(companyId, messageId).catch(() => {
        // The sweep settles it from the message's state.
      });
    });
  }

  async #settleSent(companyId: number, messageId: number) {
    const db = this.#db(companyId);
    const scheduleId = await settleScheduleOfMessage(db, messageId, new Date());
    if (scheduleId !== undefined) await this.#announce(db, 'update', scheduleId);
  }

  #db(companyId: number): TenantDb {
    return tenantDb(systemContext(this.platform.db, companyId));
  }

  #present({ schedule, contact }: ScheduleWithContact): Schedule {
    return {
      id: schedule.id,
      body: schedule.body,
      sendAt: isoRequired(schedule.sendAt),
      sentAt: iso(schedule.sentAt),
      status: schedule.status as Schedule['status'],
      contactId: schedule.contactId,
      contact: contact ?? { id: schedule.contactId, name: '', number: '' },
      whatsappId: schedule.whatsappId,
      ticketId: schedule.ticketId,
      userId: schedule.userId,
      mediaPath: schedule.mediaPath ? this.platform.storage.signedPath(schedule.mediaPath) : null,
      mediaName: schedule.mediaName,
      createdAt: isoRequired(schedule.createdAt),
      updatedAt: isoRequired(schedule.updatedAt),
    };
  }

  async #announce(db: TenantDb, action: 'create' | 'update', id: number): Promise<Schedule> {
    const row = await scheduleById(db, id);
    if (!row) throw notFound();
    const schedule = this.#present(row);
    this.platform.events.emit('schedule.saved', { companyId: db.companyId, action, schedule });
    return schedule;
  }

  async list(ctx: RequestContext, query: ScheduleListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await schedulesPage(
      tenantDb(ctx),
      { search: query.searchParam?.trim() || undefined, contactId: query.contactId },
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { schedules: pageRows.map((row) => this.#present(row)), count, hasMore };
  }

  async get(ctx: RequestContext, id: number): Promise<Schedule> {
    return this.#present(await this.#existing(tenantDb(ctx), id));
  }

  /** From JSON, or from the original client's form (the schedule and its image at once). */
  async create(
    ctx: RequestContext,
    input: ScheduleCreate | MultipartSource | null | undefined,
  ): Promise<Schedule> {
    if (isMultipart(input)) {
      return this.#withForm(ctx, input, scheduleCreateSchema, (data, media) =>
        this.#create(ctx, data, media),
      );
    }
    // No body at all is refused as the empty one it is.
    return this.#create(ctx, input ?? parseFields(scheduleCreateSchema, {}));
  }

  async #create(ctx: RequestContext, data: ScheduleCreate, media?: Media): Promise<Schedule> {
    const db = tenantDb(ctx);
    await this.#checkRefs(db, data);
    const sendAt = instantOf(data.sendAt, await companySetting(db, 'timezone'));
    const id = await insertSchedule(db, {
      body: data.body,
      contactId: data.contactId,
      sendAt,
      whatsappId: data.whatsappId ?? null,
      userId: ctx.userId,
      ...media,
    });
    const schedule = await this.#announce(db, 'create', id);
    await this.#queue(ctx.companyId, id, sendAt);
    return schedule;
  }

  /** A schedule not sent yet changes; one that failed ('ERRO') waits to be sent again. */
  async update(
    ctx: RequestContext,
    id: number,
    input: ScheduleUpdate | MultipartSource | null | undefined,
  ): Promise<Schedule> {
    if (isMultipart(input)) {
      return this.#withForm(ctx, input, scheduleUpdateSchema, (data, media) =>
        this.#update(ctx, id, data, media),
      );
    }
    return this.#update(ctx, id, input ?? {});
  }

  async #update(
    ctx: RequestContext,
    id: number,
    data: ScheduleUpdate,
    media?: Media,
  ): Promise<Schedule> {
    const db = tenantDb(ctx);
    const { schedule: current } = await this.#existing(db, id);
    if (current.sentAt || current.status === 'ENVIADA') throw alreadySent();
    await this.#checkRefs(db, data);
    const sendAt = data.sendAt
      ? instantOf(data.sendAt, await companySetting(db, 'timezone'))
      : undefined;
    const changed = await updateUnsentSchedule(db, id, {
      body: data.body,
      contactId: data.contactId,
      sendAt,
      whatsappId: data.whatsappId,
      status: 'PENDENTE',
      // An error's failed message stays in its conversation; the schedule makes a new one.
      messageId: null,
      ...media,
    });
    if (!changed) throw alreadySent();
    if (media) await forgetStored(this.platform.storage, current.mediaPath);
    const schedule = await this.#announce(db, 'update', id);
    const retimed = sendAt !== undefined && sendAt.getTime() !== current.sendAt.getTime();
    if (retimed || current.status !== 'PENDENTE') {
      await this.#queue(ctx.companyId, id, new Date(schedule.sendAt));
    }
    return schedule;
  }

  /**
   * The original client's form: the schedule as JSON in `scheduleData` (or as the form's own text
   * fields), and its image as `file` (which that client sends as the text 'null' when there is
   * none). The image is stored first and removed again if the schedule is refused.
   */
  async #withForm<T>(
    ctx: RequestContext,
    source: MultipartSource,
    schema: z.ZodType<T>,
    save: (data: T, media?: Media) => Promise<Schedule>,
  ): Promise<Schedule> {
    const form = await readUploads(source, this.platform.storage, ctx.companyId, {
      fileFields: ['file'],
      maxFiles: 1,
      types: SCHEDULE_MEDIA_TYPES,
    });
    const [file] = form.files;
    try {
      const data = parseFields(schema, formData(form.fields));
      return await save(data, file && { mediaPath: file.key, mediaName: file.fileName });
    } catch (error) {
      await discardUploads(this.platform.storage, form.files);
      throw error;
    }
  }

  /** Sent or not: a sent one's message stays in its conversation, with its image. */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = tenantDb(ctx);
    const { schedule } = await this.#existing(db, id);
    await deleteSchedule(db, id);
    if (!schedule.messageId) await forgetStored(this.platform.storage, schedule.mediaPath);
    this.platform.events.emit('schedule.deleted', { companyId: ctx.companyId, scheduleId: id });
  }

  /** Attaches an image (form field `file`: .png, .jpg, .jpeg), replacing the one it had. */
  async attachMedia(
    ctx: RequestContext,
    id: number,
    source: MultipartSource | undefined,
  ): Promise<Schedule> {
    const db = tenantDb(ctx);
    const { schedule: current } = await this.#existing(db, id);
    if (current.sentAt) throw alreadySent();
    return replaceAttachment(source, this.platform.storage, ctx.companyId, {
      types: SCHEDULE_MEDIA_TYPES,
      fields: scheduleMediaFormSchema,
      previous: current.mediaPath,
      save: async (file) => {
        const media = { mediaPath: file.key, mediaName: file.fileName };
        if (!(await updateUnsentSchedule(db, id, media))) throw alreadySent();
        return this.#announce(db, 'update', id);
      },
    });
  }

  async detachMedia(ctx: RequestContext, id: number): Promise<Schedule> {
    const db = tenantDb(ctx);
    const { schedule: current } = await this.#existing(db, id);
    if (current.sentAt) throw alreadySent();
    if (!(await updateUnsentSchedule(db, id, { mediaPath: null, mediaName: null }))) {
      throw alreadySent();
    }
    await forgetStored(this.platform.storage, current.mediaPath);
    return this.#announce(db, 'update', id);
  }

  /**
   * Sends a due schedule, once. In one transaction: the claim (only while it waits, is due and
   * no message was made of it), the contact's live ticket on the connection (found, or opened for
   * the schedule's user, pending without one) and the outbound message as pending, recorded on
   * the schedule. After the commit the outbound sender delivers it; a crash before that leaves
   * the message pending, which the connection's flush sends. The schedule is sent once the
   * network took its message; a failed send is tried again by the job's retries and, after the
   * last (`final`), the schedule shows the error.
   */
  async send(
    companyId: number,
    scheduleId: number,
    now = new Date(),
    run: { final: boolean } = { final: true },
  ): Promise<ScheduleSendOutcome> {
    const db = this.#db(companyId);
    const zone = await companySetting(db, 'timezone');
    const claimed = await db.transaction(async (tx) => {
      const schedule = await claimDueSchedule(tx, scheduleId, now);
      if (!schedule) return undefined;
      const { contact, connection, userId } = await sendingTarget(tx, schedule);
      if (!contact || !connection) {
        await settleSchedule(tx, scheduleId, { status: 'ERRO' });
        return { status: 'error' as const };
      }
      // Opened for the schedule's user, waiting without one.
      const { ticket, opened } = await this.tickets.liveTicket(tx, {
        contact,
        whatsappId: connection.id,
        userId,
      });
      const body = resolveVariables(
        schedule.body,
        {
          contactName: contact.name,
          ticketId: ticket.id,
          ticketCreatedAt: new Date(ticket.createdAt),
          timeZone: zone,
        },
        now,
      );
      const media = schedule.mediaPath
        ? {
            key: schedule.mediaPath,
            mimeType: mimeOfKey(schedule.mediaPath),
            fileName: schedule.mediaName ?? 'imagem',
            kind: 'image' as const,
          }
        : undefined;
      const messageId = await storePending(tx, ticket.id, connection, { body, media });
      await recordScheduleMessage(tx, scheduleId, {
        ticketId: ticket.id,
        messageId,
        whatsappId: connection.id,
      });
      return { status: 'claimed' as const, ticketId: ticket.id, messageId, opened };
    });
    if (!claimed) {
      // Taken before: by a try that failed, by another instance, or by one that crashed.
      const row = await scheduleById(db, scheduleId);
      if (row?.schedule.status !== 'PENDENTE') return 'done';
      if (!row.schedule.messageId) return 'not-due';
      return this.#settle(db, scheduleId, row.schedule.messageId, {
        final: run.final,
        deliver: 'again-if-failed',
      });
    }
    if (claimed.status === 'error') {
      await this.#announce(db, 'update', scheduleId);
      return 'error';
    }
    await this.tickets.announceOpened(db, claimed);
    return this.#settle(db, scheduleId, claimed.messageId, { final: run.final, deliver: 'first' });
  }

  /**
   * Delivers a claimed schedule's message (the first time, or again after a failure) and records
   * what came of it. A message handed to the instance that runs its connection, or waiting for
   * one, is settled later by the sweep.
   */
  async #settle(
    db: TenantDb,
    scheduleId: number,
    messageId: number,
    run: { final: boolean; deliver: 'first' | 'again-if-failed' | 'no' },
  ): Promise<ScheduleSendOutcome> {
    const companyId = db.companyId;
    let state = await deliveryState(db, messageId);
    const delivery =
      run.deliver === 'first'
        ? this.outbound.sendStored(companyId, messageId)
        : run.deliver === 'again-if-failed' && state === 'failed'
          ? this.outbound.retry(systemContext(this.platform.db, companyId), messageId)
          : undefined;
    if (delivery) {
      // What the send came to is read from the message below.
      await delivery.catch(() => undefined);
      state = await deliveryState(db, messageId);
    }
    if (state === 'sent') {
      if (await settleSchedule(db, scheduleId, { status: 'ENVIADA', sentAt: new Date() })) {
        await this.#announce(db, 'update', scheduleId);
      }
      return 'sent';
    }
    if (state === 'pending' || state === 'sending') return 'handed-over';
    // Failed ('unknown' cannot be sent again safely: a person decides), or deleted meanwhile.
    if (run.final || state !== 'failed') {
      if (await settleSchedule(db, scheduleId, { status: 'ERRO' })) {
        await this.#announce(db, 'update', scheduleId);
      }
      return 'error';
    }
    throw new ScheduleSendError(scheduleId);
  }

  /**
   * Every minute: due schedules whose job was lost are queued again, and those whose message was
   * handed over (sent since, or given up long ago) are settled.
   */
  async sweep(now = new Date()): Promise<void> {
    const settledBefore = new Date(now.getTime() - RETRY_WINDOW_MS);
    let failure: unknown;
    for (const companyId of await companiesWithDueSchedules(globalDb(this.platform), now)) {
      const db = this.#db(companyId);
      for (const { id, messageId } of await dueSchedules(db, now, settledBefore, SWEEP_BATCH)) {
        const done = messageId
          ? this.#settle(db, id, messageId, { final: true, deliver: 'no' })
          : this.#queue(companyId, id, now);
        await done.catch((error: unknown) => {
          failure ??= error;
        });
      }
    }
    // The others were handled; the job's log tells why this one was not (and it stays due).
    if (failure) throw failure;
  }

  async #queueFor(companyId: number, scheduleId: number) {
    const row = await scheduleById(this.#db(companyId), scheduleId);
    if (row?.schedule.status === 'PENDENTE') {
      await this.#queue(companyId, scheduleId, row.schedule.sendAt);
    }
  }

  /** A job at the schedule's time; lost only with the database down, when the sweep covers it. */
  async #queue(companyId: number, scheduleId: number, sendAt: Date) {
    await this.platform.jobs
      .send(
        SCHEDULE_SEND_JOB,
        { companyId, scheduleId },
        {
          delayMs: Math.max(0, sendAt.getTime() - Date.now()),
          singletonKey: `${scheduleId}@${sendAt.toISOString()}`,
        },
      )
      .catch(() => undefined);
  }

  async #existing(db: TenantDb, id: number): Promise<ScheduleWithContact> {
    const row = await scheduleById(db, id);
    if (!row) throw notFound();
    return row;
  }

  async #checkRefs(db: TenantDb, data: { contactId?: number; whatsappId?: number | null }) {
    if (data.contactId !== undefined && !(await contactExists(db, data.contactId))) {
      throw new AppError('ERR_NO_CONTACT_FOUND', 404);
    }
    if (data.whatsappId && !(await connectionExists(db, data.whatsappId))) {
      throw new AppError('ERR_NO_WAPP_FOUND', 404);
    }
  }
}
