import { z } from 'zod';

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
  /** 0 waiting to be sent, 1 sent, 2 delivered, 3 read, 4 played; -1 failed to send. */
  ack: z.number(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
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
