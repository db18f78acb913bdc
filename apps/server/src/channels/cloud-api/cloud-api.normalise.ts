import type { Readable } from 'node:stream';
import { ACK, writeVcard } from '@atendi/shared';
import { locationBody, storable } from '../normalise';
import type { AckUpdate, InboundChange, InboundMessage, MessageKind } from '../provider';

/** The Cloud API webhook payload ('messages' field), as far as the inbox reads it. */
export interface CloudWebhook {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: CloudValue }[] }[];
}

export interface CloudValue {
  messaging_product?: string;
  metadata?: { display_phone_number?: string; phone_number_id?: string };
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  messages?: CloudMessage[];
  statuses?: CloudStatus[];
}

export interface CloudMedia {
  id: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
  filename?: string;
  voice?: boolean;
}

export interface CloudContactCard {
  name?: { formatted_name?: string; first_name?: string; last_name?: string };
  phones?: { phone?: string; wa_id?: string; type?: string }[];
  emails?: { email?: string; type?: string }[];
  org?: { company?: string };
}

export interface CloudMessage {
  id: string;
  from: string;
  timestamp?: string;
  type: string;
  context?: { id?: string; from?: string };
  text?: { body?: string };
  image?: CloudMedia;
  audio?: CloudMedia;
  video?: CloudMedia;
  document?: CloudMedia;
  sticker?: CloudMedia;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: CloudContactCard[];
  reaction?: { message_id?: string; emoji?: string };
  button?: { text?: string; payload?: string };
  /** A phone edited an earlier message (Meta sends these to WhatsApp Business app numbers). */
  edit?: { original_message_id?: string; message?: Omit<CloudMessage, 'id' | 'from'> };
  /** A phone deleted an earlier message for everyone (idem). */
  revoke?: { original_message_id?: string };
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string };
  };
}

export interface CloudStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | string;
  recipient_id?: string;
  timestamp?: string;
}

const MEDIA: Record<string, { kind: MessageKind; mime: string }> = {
  image: { kind: 'image', mime: 'image/jpeg' },
  sticker: { kind: 'image', mime: 'image/webp' },
  audio: { kind: 'audio', mime: 'audio/ogg' },
  video: { kind: 'video', mime: 'video/mp4' },
  document: { kind: 'document', mime: 'application/octet-stream' },
};

/** A shared contact as the vCard the other providers carry. */
export function vcardOf(card: CloudContactCard): string {
  return storable(
    writeVcard({
      name: card.name?.formatted_name ?? card.name?.first_name ?? '',
      firstName: card.name?.first_name,
      lastName: card.name?.last_name,
      org: card.org?.company,
      phones: (card.phones ?? []).map((phone) => ({
        number: phone.phone,
        waid: phone.wa_id,
        type: phone.type,
      })),
      emails: (card.emails ?? []).map((email) => email.email ?? ''),
    }),
  );
}

const timestampOf = (message: CloudMessage) => {
  const seconds = Number(message.timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
};

/**
 * One webhook message as the inbox's InboundMessage; undefined for what the inbox does not
 * show (system notices, unsupported types, a reaction taken back).
 */
export function inboundOf(
  value: CloudValue,
  message: CloudMessage,
  openMedia: (mediaId: string) => Promise<Readable>,
): InboundMessage | undefined {
  if (!message?.id || !/^\d{5,20}$/.test(message.from ?? '')) return undefined;
  const name = value.contacts?.find((contact) => contact.wa_id === message.from)?.profile?.name;
  const base = {
    providerMessageId: message.id,
    chatId: message.from,
    isGroup: false,
    fromMe: false,
    contact: { number: message.from, ...(name ? { name: storable(name) } : {}) },
    timestamp: timestampOf(message),
    ...(message.context?.id ? { quotedProviderMessageId: message.context.id } : {}),
  };
  const media = MEDIA[message.type];
  const file = media ? message[message.type as 'image'] : undefined;
  if (media && file?.id) {
    const mimeType = file.mime_type?.split(';')[0]?.trim() || media.mime;
    return {
      ...base,
      kind: media.kind,
      body: storable(file.caption),
      media: {
        mimeType,
        ...(file.filename ? { fileName: storable(file.filename) } : {}),
        open: () => openMedia(file.id),
      },
    };
  }
  switch (message.type) {
    case 'text':
      return { ...base, kind: 'text', body: storable(message.text?.body) };
    case 'location': {
      const place = message.location;
      if (!place) return undefined;
      const label = [place.name, place.address].filter(Boolean).join(' - ');
      return {
        ...base,
        kind: 'location',
        body: locationBody(place.latitude, place.longitude, label),
        location: {
          latitude: place.latitude,
          longitude: place.longitude,
          ...(label ? { name: storable(label) } : {}),
        },
      };
    }
    case 'contacts': {
      const vcard = (message.contacts ?? []).map(vcardOf).join('\n');
      return { ...base, kind: 'contact', body: vcard, vcard };
    }
    case 'reaction': {
      if (!message.reaction?.emoji || !message.reaction.message_id) return undefined;
      return {
        ...base,
        kind: 'reaction',
        body: storable(message.reaction.emoji),
        quotedProviderMessageId: message.reaction.message_id,
      };
    }
    case 'button':
      return { ...base, kind: 'text', body: storable(message.button?.text) };
    case 'interactive': {
      const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
      return reply?.title ? { ...base, kind: 'text', body: storable(reply.title) } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * An edit or a deletion of an earlier message. Meta's messages webhook carries them as types
 * 'edit' (the original id and the new message: text, or media with its new caption) and
 * 'revoke' (the original id); it documents them for numbers also on the WhatsApp Business app
 * ("coexistence"), and other numbers never receive them.
 */
export function changeOf(message: CloudMessage): InboundChange | undefined {
  if (!/^\d{5,20}$/.test(message?.from ?? '')) return undefined;
  const chatId = message.from;
  if (message.type === 'revoke') {
    const original = message.revoke?.original_message_id;
    return original ? { type: 'delete', chatId, providerMessageId: original } : undefined;
  }
  if (message.type !== 'edit') return undefined;
  const original = message.edit?.original_message_id;
  const edited = message.edit?.message;
  if (!original || !edited?.type) return undefined;
  const body =
    edited.type === 'text'
      ? edited.text?.body
      : (edited[edited.type as keyof typeof edited] as CloudMedia | undefined)?.caption;
  if (typeof body !== 'string') return undefined;
  return { type: 'edit', chatId, providerMessageId: original, body: storable(body) };
}

const ACKS: Record<string, number> = {
  sent: ACK.sent,
  delivered: ACK.delivered,
  read: ACK.read,
};

/** A status webhook as ticks; 'failed' cannot move ticks (they only go forward). */
export function ackOf(status: CloudStatus): AckUpdate | undefined {
  const ack = ACKS[status?.status];
  return ack && status.id ? { providerMessageId: status.id, ack } : undefined;
}
