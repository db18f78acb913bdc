import { z } from 'zod';
import { MESSAGE_BODY_MAX } from '../messages/messages.schemas';

/** Digits of a phone number as callers type it: `+55 (11) 98765-4321` is fine. */
const NUMBER_TEXT = /^[\d\s()+.-]{8,30}$/;
const numberText = z
  .string()
  .trim()
  .regex(NUMBER_TEXT, 'Número inválido')
  .refine((text) => text.replace(/\D/g, '').length >= 10, 'Número inválido');

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

/**
 * A number as the network knows it: digits only, Brazil's country code added to a bare area
 * code and number (a number written with '+' names its own country), and the ninth digit added to a Brazilian mobile written with eight.
 */
export function normaliseNumber(text: string): string {
  let digits = text.replace(/\D/g, '');
  // Without a '+', an area code (2) and 8 or 9 digits is a Brazilian number short of its code.
  const international = text.trim().startsWith('+');
  if (!international && (digits.length === 10 || digits.length === 11)) digits = `55${digits}`;
  // 55 + area code + an 8-digit mobile (6 to 9): the ninth digit is added in front.
  if (digits.length === 12 && digits.startsWith('55') && /[6-9]/.test(digits[4]!)) {
    digits = `${digits.slice(0, 4)}9${digits.slice(4)}`;
  }
  return digits;
}
