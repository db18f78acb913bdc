import { z } from 'zod';
import { MESSAGE_BODY_MAX } from '../messages/messages.schemas';
import { normalizePhoneNumber } from '../phone';

/** Digits of a phone number as callers type it: `+55 (11) 98765-4321` is fine. */
const NUMBER_TEXT = /^[\d\s()+.-]{8,30}$/;
/** Read as the network knows it (see normalizePhoneNumber): digits, country code, ninth digit. */
const numberText = z
  .string()
  .trim()
  .regex(NUMBER_TEXT, 'Número inválido')
  .refine((text) => text.replace(/\D/g, '').length >= 10, 'Número inválido')
  .transform((text, ctx) => {
    const number = normalizePhoneNumber(text);
    if (!number) {
      ctx.addIssue({ code: 'custom', message: 'Número inválido' });
      return z.NEVER;
    }
    return number;
  });

/** The external API's JSON send: the contact's number and the text. */
export const externalSendSchema = z.object({
  number: numberText,
  body: z.string().max(MESSAGE_BODY_MAX).optional().default(''),
});
export type ExternalSend = z.infer<typeof externalSendSchema>;

/** The multipart form's text fields (the files come as `medias`). */
export const externalSendFormSchema = externalSendSchema;

export const externalSendResultSchema = z.object({
  mensagem: z.string(),
  /** The stored message; with files, the first of them. */
  id: z.number().int(),
  /** Every stored message, one per file (or the text alone). */
  ids: z.array(z.number().int()),
  ticketId: z.number().int(),
});
export type ExternalSendResult = z.infer<typeof externalSendResultSchema>;
