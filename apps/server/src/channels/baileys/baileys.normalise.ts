import { ACK } from '@atendi/shared';
import {
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { locationBody, storable } from '../normalise';
import type { MessageKind } from '../provider';

export type DownloadType = 'image' | 'audio' | 'video' | 'document' | 'sticker';

export type MediaContent =
  | proto.Message.IImageMessage
  | proto.Message.IAudioMessage
  | proto.Message.IVideoMessage
  | proto.Message.IDocumentMessage
  | proto.Message.IStickerMessage;

/** What one WhatsApp message says, before the people in it are resolved. */
export interface Content {
  kind: MessageKind;
  body: string;
  quotedId?: string;
  media?: { type: DownloadType; message: MediaContent; mimeType: string; fileName?: string };
  location?: { latitude: number; longitude: number; name?: string };
  vcard?: string;
}

const DEFAULT_MIME: Record<DownloadType, string> = {
  image: 'image/jpeg',
  sticker: 'image/webp',
  audio: 'audio/ogg',
  video: 'video/mp4',
  document: 'application/octet-stream',
};

function media(
  kind: MessageKind,
  type: DownloadType,
  message: MediaContent,
  extra: { caption?: string | null; fileName?: string | null },
): Content {
  return {
    kind,
    body: storable(extra.caption),
    quotedId: message.contextInfo?.stanzaId ?? undefined,
    media: {
      type,
      message,
      mimeType: message.mimetype?.split(';')[0]?.trim() || DEFAULT_MIME[type],
      ...(extra.fileName ? { fileName: storable(extra.fileName) } : {}),
    },
  };
}

/** Reads the content of a message (disappearing, view-once and captioned wrappers removed). */
export function readContent(raw: proto.IMessage | null | undefined): Content | undefined {
  const m = normalizeMessageContent(raw);
  if (!m) return undefined;
  if (m.conversation) return { kind: 'text', body: storable(m.conversation) };
  if (m.extendedTextMessage) {
    return {
      kind: 'text',
      body: storable(m.extendedTextMessage.text),
      quotedId: m.extendedTextMessage.contextInfo?.stanzaId ?? undefined,
    };
  }
  if (m.imageMessage) return media('image', 'image', m.imageMessage, m.imageMessage);
  if (m.stickerMessage) return media('image', 'sticker', m.stickerMessage, {});
  if (m.audioMessage) return media('audio', 'audio', m.audioMessage, {});
  if (m.videoMessage) return media('video', 'video', m.videoMessage, m.videoMessage);
  if (m.ptvMessage) return media('video', 'video', m.ptvMessage, {});
  if (m.documentMessage) {
    return media('document', 'document', m.documentMessage, {
      caption: m.documentMessage.caption,
      fileName: m.documentMessage.fileName ?? m.documentMessage.title,
    });
  }
  const location = m.locationMessage ?? m.liveLocationMessage;
  if (location) {
    const name =
      'name' in location ? [location.name, location.address].filter(Boolean).join(' - ') : '';
    const latitude = location.degreesLatitude ?? 0;
    const longitude = location.degreesLongitude ?? 0;
    return {
      kind: 'location',
      body: locationBody(latitude, longitude, name),
      quotedId: location.contextInfo?.stanzaId ?? undefined,
      location: { latitude, longitude, ...(name ? { name: storable(name) } : {}) },
    };
  }
  // The card itself is the body: it is what the ticket shows and what the pipeline keeps.
  if (m.contactMessage) {
    const vcard = storable(m.contactMessage.vcard);
    return {
      kind: 'contact',
      body: vcard || storable(m.contactMessage.displayName),
      vcard,
      quotedId: m.contactMessage.contextInfo?.stanzaId ?? undefined,
    };
  }
  if (m.contactsArrayMessage) {
    const vcard = storable(
      (m.contactsArrayMessage.contacts ?? []).map((card) => card.vcard ?? '').join('\n'),
    );
    return {
      kind: 'contact',
      body: vcard || storable(m.contactsArrayMessage.displayName),
      vcard,
    };
  }
  if (m.reactionMessage) {
    // An empty reaction takes one back: nothing to show.
    if (!m.reactionMessage.text) return undefined;
    return {
      kind: 'reaction',
      body: storable(m.reactionMessage.text),
      quotedId: m.reactionMessage.key?.id ?? undefined,
    };
  }
  const reply =
    m.buttonsResponseMessage?.selectedDisplayText ??
    m.templateButtonReplyMessage?.selectedDisplayText ??
    m.listResponseMessage?.title;
  if (reply) return { kind: 'text', body: storable(reply) };
  // Protocol messages (edits, revokes, key shares) arrive as messages.update; the rest is ignored.
  return undefined;
}

/** Chats that are no conversation with a customer. */
export const isIgnoredChat = (jid: string | null | undefined): boolean =>
  !jid || Boolean(isJidBroadcast(jid) || isJidNewsletter(jid)) || jid.endsWith('@bot');

export const isGroupChat = (jid: string): boolean => Boolean(isJidGroup(jid));

/**
 * A person's identities from a jid and its alternative (WhatsApp sends both for LID-addressed
 * chats): the phone number when known, and the LID, so both map to one contact.
 */
export function identities(jid: string | null | undefined, alt?: string | null) {
  const pn = [jid, alt].find((candidate) => candidate && isPnUser(candidate));
  const lid = [jid, alt].find((candidate) => candidate && isLidUser(candidate));
  return {
    pn: pn ? jidNormalizedUser(pn) : undefined,
    lid: lid ? jidNormalizedUser(lid) : undefined,
  };
}

/** The phone number part of a jid (digits). */
export const userOf = (jid: string): string => jidDecode(jid)?.user ?? jid.split('@')[0]!;

export const timestampOf = (message: WAMessage): Date => {
  const seconds = toNumber(message.messageTimestamp ?? 0);
  return seconds > 0 ? new Date(seconds * 1000) : new Date();
};

/**
 * Baileys' delivery status (proto.WebMessageInfo.Status) as the product's ticks: the spec's
 * numbers are WhatsApp's own. ERROR (0) and PENDING (1) move no tick: ticks only go forward,
 * and a send's failure is known from the send itself.
 */
export function ackOf(status: number | null | undefined): number | undefined {
  switch (status) {
    case proto.WebMessageInfo.Status.SERVER_ACK:
      return ACK.sent;
    case proto.WebMessageInfo.Status.DELIVERY_ACK:
      return ACK.delivered;
    case proto.WebMessageInfo.Status.READ:
      return ACK.read;
    case proto.WebMessageInfo.Status.PLAYED:
      return ACK.played;
    default:
      return undefined;
  }
}

/** Text of an edited message's new content. */
export const editedText = (message: proto.IMessage | null | undefined): string | undefined => {
  const content = readContent(message);
  return content ? content.body : undefined;
};
