import { type Message, plainWhatsappText, readVcard } from '@atendi/shared';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { whatsappText } from '../../app/whatsappText';
import { BODY_IS_DATA } from './components/MessageMedia';

/** A contact card's label: its name, else its number, else the kind alone. */
function cardLabel(body: string, t: TFunction<'messages'>): string {
  const card = readVcard(body);
  const name = card.name || card.numbers[0];
  return name ? t('labels.contactCard', { name }) : t('labels.vcard');
}

/**
 * A message in one line, for notifications: the text typed (or a file's caption) without its
 * marks, else a label in the 'messages' namespace of `t`. A contact card is named, never shown
 * as its vCard; a location's link and a missed call's note are data, not words to show.
 */
export function messageLabel(
  message: Pick<Message, 'mediaType' | 'body'>,
  t: TFunction<'messages'>,
): string {
  const { mediaType, body } = message;
  if (mediaType === 'vcard') return cardLabel(body, t);
  if (mediaType === 'locationMessage' || mediaType === 'call_log') return t(`labels.${mediaType}`);
  if (body.trim() || mediaType === 'chat') return plainWhatsappText(body);
  return t(`labels.${mediaType}`);
}

/**
 * A message as a quote and the reply bar show it: its text formatted, a contact card's name or
 * number (never its vCard), a label for a location or a call, the kind of a file sent alone.
 */
export function quoteText(
  message: Pick<Message, 'mediaType' | 'body'>,
  t: TFunction<'messages'>,
): ReactNode {
  const { mediaType, body } = message;
  if (BODY_IS_DATA.has(mediaType)) return messageLabel(message, t);
  return body ? whatsappText(body) : t(`kinds.${mediaType}`);
}
