import { z } from 'zod';
import { ticketSchema } from '../tickets/tickets.schemas';
import { MSG, positiveId } from '../validation';

export const MEDIA_TYPES = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'locationMessage',
  'vcard',
  'call_log',
] as const;
export const mediaTypeSchema = z.enum(MEDIA_TYPES);
export type MediaType = z.infer<typeof mediaTypeSchema>;

/**
 * Ticks as the spec numbers them (WhatsApp's own message status): 4 and 5 mean read. A send that
 * failed is 0, below every tick, so it never passes for one (WhatsApp's own number for an error).
 */
export const ACK = { failed: 0, pending: 1, sent: 2, delivered: 3, read: 4, played: 5 } as const;

const messageFields = {
  id: z.number(),
  ticketId: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  mediaType: mediaTypeSchema,
  /** Short-lived signed address of the media file; null for text. */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** 1 waiting to be sent, 2 sent, 3 delivered, 4 read, 5 played; 0 failed to send (ACK). */
  ack: z.number(),
  /**
   * Outbound only. 'unknown' (with ack 0): the network may have taken it (its answer was lost),
   * so it is not sent again by itself; a person decides.
   */
  sendState: z.enum(['pending', 'sending', 'sent', 'failed', 'unknown']).nullable().optional(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  /** An agent's copy of another message (POST /message/forward). */
  isForwarded: z.boolean(),
  contactId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const quotedMessageSchema = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: mediaTypeSchema,
});

export const messageSchema = z.object({
  ...messageFields,
  quotedMsgId: z.number().nullable(),
  quotedMsg: quotedMessageSchema.nullable(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }).nullable(),
});
export type Message = z.infer<typeof messageSchema>;

/** Messages per page of GET /messages/:ticketId. */
export const MESSAGES_PAGE_SIZE = 20;

export const messageListQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

export const ticketIdParamsSchema = z.strictObject({
  ticketId: z.coerce.number().int().positive().max(2_147_483_647),
});

/** One page, newest page first; the messages of a page in the order they were written. */
export const messagesPageSchema = z.object({
  messages: z.array(messageSchema),
  ticket: ticketSchema,
  count: z.number(),
  hasMore: z.boolean(),
});

/** Longest text the messaging app carries in one message. */
export const MESSAGE_BODY_MAX = 65_536;

/**
 * POST /messages/:ticketId as JSON. `fromMe`, `read` and `mediaUrl` are sent by the spec's
 * client and ignored. `signMessage: true` prefixes the agent's name in bold. Left out, the body
 * goes as it came: the spec's client signs the text itself (its sign option, core 5), so a
 * signature added here would be its second.
 */
export const messageCreateSchema = z.object({
  body: z.string().max(MESSAGE_BODY_MAX).optional().default(''),
  quotedMsg: z.object({ id: positiveId }).nullable().optional(),
  signMessage: z.boolean().optional().default(false),
  fromMe: z.boolean().optional(),
  /** The spec's client sends `read: 1`. */
  read: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  mediaUrl: z.string().max(2000).nullable().optional(),
});
export type MessageCreate = z.infer<typeof messageCreateSchema>;

/** Most messages one forward carries. */
export const FORWARD_MAX_MESSAGES = 50;

/**
 * POST /message/forward: messages the caller may read, copied in the order they were written
 * into an open ticket the caller may write to (`ticketId`, which wins when both are sent) or into
 * a contact's live ticket (`contactId`, opened in the caller's hands when there is none). The
 * original client sends one message per call (`messageId`, `contactId`, `signMessage`); a forward
 * is never signed.
 */
export const messageForwardSchema = z
  .object({
    messageIds: z.array(positiveId).min(1).max(FORWARD_MAX_MESSAGES).optional(),
    messageId: positiveId.optional(),
    ticketId: positiveId.optional(),
    contactId: positiveId.optional(),
    signMessage: z.boolean().optional(),
  })
  .superRefine((value, issue) => {
    if (!value.messageIds && !value.messageId) {
      issue.addIssue({ code: 'custom', path: ['messageIds'], message: MSG.required });
    }
    if (!value.ticketId && !value.contactId) {
      issue.addIssue({ code: 'custom', path: ['contactId'], message: MSG.required });
    }
  })
  .transform(({ messageIds, messageId, ticketId, contactId }) => ({
    messageIds: [...new Set(messageIds ?? [messageId!])],
    ...(ticketId ? { ticketId } : { contactId: contactId! }),
  }));
export type MessageForward = z.infer<typeof messageForwardSchema>;

export const messageForwardResultSchema = z.object({
  ticket: ticketSchema,
  messages: z.array(messageSchema),
});
export type MessageForwardResult = z.infer<typeof messageForwardResultSchema>;

/** The text fields of the multipart form (files come as `medias`). */
export const messageFormSchema = z
  .object({
    body: z.string().max(MESSAGE_BODY_MAX).optional().default(''),
    signMessage: z.enum(['true', 'false']).optional(),
    quotedMsgId: positiveId.optional(),
    fromMe: z.string().max(10).optional(),
    read: z.string().max(10).optional(),
  })
  .transform(
    ({ body, signMessage, quotedMsgId }): MessageCreate => ({
      body,
      signMessage: signMessage === 'true',
      quotedMsg: quotedMsgId ? { id: quotedMsgId } : null,
    }),
  );

/** The message variables agents and automations may write; resolved by the server. */
export const MESSAGE_VARIABLES = [
  'contactFirstName',
  'contactName',
  'greeting',
  'protocolNumber',
  'date',
  'hour',
] as const;

/** Largest file an agent may attach, and how many files one message form may carry. */
export const MEDIA_MAX_BYTES = 16 * 1024 * 1024;
export const MEDIA_MAX_FILES = 10;

/**
 * What agents may attach (files from the spec's clients, quick replies). Anything active in a
 * browser (HTML, SVG, scripts) is refused; unknown binary types download as files.
 */
export const MEDIA_UPLOAD_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'audio/ogg',
  'audio/mpeg',
  'audio/mp4',
  'audio/webm',
  'audio/aac',
  'audio/amr',
  'audio/wav',
  'audio/x-m4a',
  'video/mp4',
  'video/3gpp',
  'video/webm',
  'video/quicktime',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/zip',
  'application/x-zip-compressed',
  'application/vnd.rar',
  'application/x-rar-compressed',
  'application/x-7z-compressed',
  'application/octet-stream',
  'text/plain',
  'text/csv',
  'text/vcard',
  'text/x-vcard',
] as const;
