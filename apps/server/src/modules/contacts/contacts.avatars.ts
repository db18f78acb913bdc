import { Readable } from 'node:stream';
import type { ConnectionRef } from '../../channels/provider';
import { tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import { typeOfHead } from '../../platform/file-signatures';
import type { Storage } from '../../platform/storage';
import type { ServiceDeps } from '../deps';
import { contactsRepository } from './contacts.repository';

/**
 * How long a stored picture's signed address works. The contact writing again in its second
 * half renews it; past it, screens fall back to the contact's initial.
 */
export const AVATAR_TTL_SECONDS = 7 * 24 * 3600;
/** A contact with no picture we may see is asked again after this long. */
const RETRY_MS = 6 * 3600_000;
/** Contacts remembered as asked, per instance; the oldest are forgotten first. */
const REMEMBERED = 10_000;

/** The picture's type from its first bytes: only images a browser shows inline, nothing else. */
export const imageTypeOf = (image: Buffer): string | undefined =>
  typeOfHead(image, ['image/jpeg', 'image/png', 'image/webp']);

const SIGNED = /^\/media\/(\d+\/[0-9a-f-]{36}\.[a-z0-9]{1,5})\?expires=(\d+)&/;

/** The storage key behind a picture address this server signed, if it is one. */
export function avatarKey(storage: Storage, url: string): string | undefined {
  const key = SIGNED.exec(url)?.[1];
  return key && storage.companyOf(key) !== undefined ? key : undefined;
}

/** No picture yet, or ours with its address past half its life; others' addresses are kept. */
export function needsAvatar(url: string, now = Date.now()): boolean {
  if (!url) return true;
  const expires = SIGNED.exec(url)?.[2];
  if (!expires) return false;
  return Number(expires) * 1000 - now < (AVATAR_TTL_SECONDS * 1000) / 2;
}

type AvatarContact = { id: number; number: string; isGroup: boolean; profilePicUrl: string };

/**
 * Contacts' profile pictures, fetched through the connection that heard them and stored under a
 * generated name like message media, served by signed address. Background work after the
 * inbound commit: a slow or failing picture never holds a message back.
 */
export class ContactAvatars {
  readonly #asked = new Map<string, number>();

  constructor(
    private readonly platform: Pick<ServiceDeps, 'db' | 'events' | 'storage' | 'channels'>,
  ) {}

  /** Starts fetching the contact's picture when it needs one; returns at once. */
  refresh(connection: ConnectionRef, contact: AvatarContact): void {
    if (!needsAvatar(contact.profilePicUrl)) return;
    const key = `${connection.companyId}:${contact.id}`;
    const now = Date.now();
    const last = this.#asked.get(key);
    if (last !== undefined && now - last < RETRY_MS) return;
    this.#asked.delete(key);
    this.#asked.set(key, now);
    if (this.#asked.size > REMEMBERED) this.#asked.delete(this.#asked.keys().next().value!);
    this.platform.channels.track(
      this.#store(connection, contact).then((stored) => {
        // Asked again only when it comes to need a new address, not after RETRY_MS.
        if (stored) this.#asked.delete(key);
      }),
    );
  }

  async #store(connection: ConnectionRef, contact: AvatarContact): Promise<boolean> {
    const image = await this.platform.channels.profilePicture(connection.id, {
      chatId: contact.number,
      isGroup: contact.isGroup,
    });
    const type = image && imageTypeOf(image);
    if (!image || !type) return false;
    const { storage } = this.platform;
    const stored = await storage.save(connection.companyId, type, Readable.from([image]));
    const db = tenantDb(systemContext(this.platform.db, connection.companyId));
    let saved: Awaited<ReturnType<typeof contactsRepository.replacePicture>>;
    try {
      // Only over what was read: a picture stored meanwhile by another delivery stays.
      saved = await contactsRepository.replacePicture(
        db,
        contact.id,
        contact.profilePicUrl,
        storage.signedPath(stored.key, AVATAR_TTL_SECONDS),
      );
    } finally {
      if (!saved) await storage.remove(stored.key);
    }
    if (!saved) return false;
    const previous = avatarKey(storage, contact.profilePicUrl);
    if (previous) await storage.remove(previous).catch(() => {});
    this.platform.events.emit('contact.saved', {
      companyId: connection.companyId,
      action: 'update',
      contact: saved,
    });
    return true;
  }
}
