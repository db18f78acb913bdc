import { createHash } from 'node:crypto';
import {
  type ExternalSend,
  type ExternalSendResult,
  externalSendFormSchema,
  MEDIA_MAX_FILES,
  MEDIA_UPLOAD_TYPES,
  MSG,
} from '@atendi/shared';
import { connectionByApiToken } from '../../db/channel-queries';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import { bearerToken } from '../../platform/auth/tokens';
import { AppError } from '../../platform/errors';
import {
  discardUploads,
  isMultipart,
  type MultipartSource,
  parseFields,
  readUploads,
  type Upload,
} from '../../platform/uploads';
import { contactOfNumber } from '../contacts/contacts.service';
import type { ServiceDeps } from '../deps';
import type { OutboundDraft, OutboundSender } from '../messages/messages.outbound';
import type { TicketLifecycle } from '../tickets/tickets.lifecycle';

const MEDIA_RULES = {
  fileFields: ['medias'],
  maxFiles: MEDIA_MAX_FILES,
  types: MEDIA_UPLOAD_TYPES,
};

/**
 * Every refused token looks the same: missing, empty, malformed, unknown or revoked (replaced,
 * or its connection deleted). Its own code: this API has no sessions to expire.
 */
const refused = () => new AppError('ERR_INVALID_API_TOKEN', 401);

/** Tokens are 43 url-safe characters; anything far from that is not looked up at all. */
const TOKEN_SHAPE = /^[\w-]{20,200}$/;

function kindOf(mimeType: string): NonNullable<OutboundDraft['media']>['kind'] {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/')) return 'video';
  return 'document';
}

/**
 * The external messaging API: a system that holds a connection's token sends a text, or files,
 * to a number. The message lands in the contact's live ticket (opened when there is none) like
 * an agent's, and goes out through the connection's outbound sender.
 */
export class ExternalApiService {
  constructor(
    private readonly platform: Pick<
      ServiceDeps,
      'db' | 'events' | 'storage' | 'limiter' | 'config'
    >,
    private readonly outbound: Pick<OutboundSender, 'send'>,
    private readonly tickets: Pick<TicketLifecycle, 'liveTicket' | 'announceOpened'>,
  ) {}

  async send(
    authorization: string | undefined,
    input: ExternalSend | MultipartSource | null | undefined,
  ): Promise<ExternalSendResult> {
    const token = bearerToken(authorization)?.trim();
    if (!token || !TOKEN_SHAPE.test(token)) throw refused();
    const connection = await connectionByApiToken(this.platform.db, token);
    if (!connection) throw refused();
    if (!connection.useExternalApi) throw new AppError('ERR_NO_PERMISSION', 403);
    // Counted per token (by its digest: the counter's key never holds the secret).
    await this.platform.limiter.consume({
      key: `external-api:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`,
      max: this.platform.config.EXTERNAL_API_RATE_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    });

    const { companyId } = connection;
    const ctx = systemContext(this.platform.db, companyId);
    let fields: ExternalSend;
    let files: Upload[] = [];
    if (isMultipart(input)) {
      const form = await readUploads(input, this.platform.storage, companyId, MEDIA_RULES);
      files = form.files;
      try {
        fields = parseFields(externalSendFormSchema, form.fields);
      } catch (error) {
        await discardUploads(this.platform.storage, files);
        throw error;
      }
    } else if (input) {
      fields = input;
    } else {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.number', message: MSG.required }],
      });
    }
    const text = fields.body.trim();
    if (!text && files.length === 0) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.body', message: MSG.required }],
      });
    }

    let ticketId: number;
    try {
      ticketId = await this.#ticketFor(tenantDb(ctx), connection.id, fields.number);
    } catch (error) {
      await discardUploads(this.platform.storage, files);
      throw error;
    }
    const ids: number[] = [];
    if (files.length === 0) {
      ids.push((await this.outbound.send(ctx, ticketId, { body: text })).id);
    }
    for (const [index, file] of files.entries()) {
      try {
        const sent = await this.outbound.send(ctx, ticketId, {
          body: index === 0 ? text : '',
          media: {
            key: file.key,
            mimeType: file.mimeType,
            fileName: file.fileName,
            kind: kindOf(file.mimeType),
          },
        });
        ids.push(sent.id);
      } catch (error) {
        await discardUploads(this.platform.storage, files.slice(index + 1));
        throw error;
      }
    }
    return { mensagem: 'Mensagem enviada', id: ids[0]!, ids, ticketId };
  }

  /** The contact's live ticket on the connection, opened (pending) when there is none. */
  async #ticketFor(db: TenantDb, connectionId: number, number: string): Promise<number> {
    const { contact, created } = await contactOfNumber(db, number);
    if (created) {
      this.platform.events.emit('contact.saved', {
        companyId: db.companyId,
        action: 'create',
        contact,
      });
    }
    const { ticket, opened } = await this.tickets.liveTicket(db, {
      contact,
      whatsappId: connectionId,
    });
    await this.tickets.announceOpened(db, { ticketId: ticket.id, opened });
    return ticket.id;
  }
}
