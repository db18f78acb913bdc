import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  emittedOf,
  inboxCompany,
  pairedSimulator,
  phoneWrites as writes,
} from '../../../test/inbox';
import { contacts } from '../../db/schema';
import { AVATAR_TTL_SECONDS, avatarKey, imageTypeOf, needsAvatar } from './contacts.avatars';

let t: TestServer;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let simulatorId: number;

beforeAll(async () => {
  t = await startTestServer();
  home = await inboxCompany(t);
  simulatorId = await pairedSimulator(t, home.adminToken);
});
afterAll(() => t.stop());

const contactOf = async (number: string) =>
  (
    await t.database.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, home.companyId), eq(contacts.number, number)))
  )[0];

const phoneWrites = (phone: string, body: string) =>
  writes(t, home.adminToken, simulatorId, phone, body, 'Nina');

const pictureOf = async (phone: string) => (await contactOf(phone))?.profilePicUrl ?? '';

const askedFor = () => vi.spyOn(t.app.channels, 'profilePicture');

describe('contact profile pictures', () => {
  it('a contact first seen gets its picture, stored under a generated name and served signed', async () => {
    const phone = '5511966660001';
    const asked = askedFor();
    try {
      await phoneWrites(phone, 'primeira');
      await expect
        .poll(() => pictureOf(phone))
        .toMatch(
          new RegExp(`^/media/${home.companyId}/[0-9a-f-]{36}\\.png\\?expires=\\d+&signature=`),
        );
      const url = await pictureOf(phone);
      const expires = Number(/expires=(\d+)/.exec(url)![1]);
      expect(expires * 1000 - Date.now()).toBeGreaterThan((AVATAR_TTL_SECONDS - 60) * 1000);
      const served = await t.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      // Embeddable by the web app wherever it is served from.
      expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(imageTypeOf(served.rawPayload)).toBe('image/png');
      const forged = await t.app.inject({
        method: 'GET',
        url: url.replace(/signature=[^&]+/, 'signature=forged'),
      });
      expect(forged.statusCode).toBe(404);

      const contact = (await contactOf(phone))!;
      expect(emittedOf(t, `company-${home.companyId}-contact`)).toContainEqual({
        action: 'update',
        contact: expect.objectContaining({ id: contact.id, profilePicUrl: url }),
      });
      // The conversation and the lists show it too.
      const tickets = (await t.as(home.adminToken).get('/tickets?showAll=true')).json();
      expect(
        tickets.tickets.find((ticket: { contactId: number }) => ticket.contactId === contact.id)
          .contact.profilePicUrl,
      ).toBe(url);

      // Known now: the next messages do not ask again.
      await phoneWrites(phone, 'segunda');
      await phoneWrites(phone, 'terceira');
      expect(asked.mock.calls.filter(([, chat]) => chat.chatId === phone)).toHaveLength(1);
      expect(await pictureOf(phone)).toBe(url);
    } finally {
      asked.mockRestore();
    }
  });

  it('renews an address past half its life and drops the old file; keeps addresses from elsewhere', async () => {
    const phone = '5511966660002';
    await phoneWrites(phone, 'olá');
    await expect.poll(() => pictureOf(phone)).not.toBe('');
    const first = await pictureOf(phone);
    const firstKey = avatarKey(t.app.platform.storage, first)!;
    const ageing = t.app.platform.storage.signedPath(firstKey, AVATAR_TTL_SECONDS / 2 - 60);
    await t.database.db
      .update(contacts)
      .set({ profilePicUrl: ageing })
      .where(eq(contacts.number, phone));
    await phoneWrites(phone, 'de novo');
    await expect.poll(() => pictureOf(phone)).not.toBe(ageing);
    const renewed = await pictureOf(phone);
    expect(avatarKey(t.app.platform.storage, renewed)).not.toBe(firstKey);
    expect(existsSync(t.app.platform.storage.pathOf(firstKey))).toBe(false);

    const elsewhere = '5511966660003';
    await phoneWrites(elsewhere, 'oi');
    await expect.poll(() => pictureOf(elsewhere)).not.toBe('');
    await t.database.db
      .update(contacts)
      .set({ profilePicUrl: 'https://pps.example/pic.jpg' })
      .where(eq(contacts.number, elsewhere));
    const asked = askedFor();
    try {
      await phoneWrites(elsewhere, 'oi de novo');
      expect(asked).not.toHaveBeenCalled();
    } finally {
      asked.mockRestore();
    }
    expect(await pictureOf(elsewhere)).toBe('https://pps.example/pic.jpg');
  });

  it('never holds a message back: a slow or failing picture leaves the message stored', async () => {
    let release: (value: Buffer | undefined) => void = () => {};
    const slow = vi
      .spyOn(t.app.channels, 'profilePicture')
      .mockImplementationOnce(() => new Promise((resolve) => (release = resolve)))
      .mockRejectedValueOnce(new Error('network unreachable'));
    try {
      await phoneWrites('5511966660004', 'ainda esperando a foto');
      expect(await pictureOf('5511966660004')).toBe('');
      release(Buffer.from('<svg onload=alert(1)>'));
      await phoneWrites('5511966660005', 'foto falhou');
      await expect.poll(() => slow.mock.calls.length).toBe(2);
    } finally {
      slow.mockRestore();
    }
    // Not an image: nothing stored, nothing shown.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await pictureOf('5511966660004')).toBe('');
    expect(await pictureOf('5511966660005')).toBe('');
  });

  it('goes with the contact when it is deleted', async () => {
    const phone = '5511966660006';
    await phoneWrites(phone, 'tchau');
    await expect.poll(() => pictureOf(phone)).not.toBe('');
    const key = avatarKey(t.app.platform.storage, await pictureOf(phone))!;
    expect(existsSync(t.app.platform.storage.pathOf(key))).toBe(true);
    const contact = (await contactOf(phone))!;
    expect((await t.as(home.adminToken).delete(`/contacts/${contact.id}`)).statusCode).toBe(204);
    expect(existsSync(t.app.platform.storage.pathOf(key))).toBe(false);
  });

  it('knows which pictures need fetching', async () => {
    const storage = t.app.platform.storage;
    const stored = await storage.save(
      home.companyId,
      'image/png',
      Readable.from([Buffer.from('x')]),
    );
    expect(needsAvatar('')).toBe(true);
    expect(needsAvatar(storage.signedPath(stored.key, AVATAR_TTL_SECONDS))).toBe(false);
    expect(needsAvatar(storage.signedPath(stored.key, 60))).toBe(true);
    expect(needsAvatar('https://pps.whatsapp.net/v/t61/abc.jpg?oe=1')).toBe(false);
    expect(avatarKey(storage, storage.signedPath(stored.key))).toBe(stored.key);
    expect(avatarKey(storage, '/media/../etc/passwd?expires=1&signature=x')).toBeUndefined();
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('<svg/>'))).toBeUndefined();
  });
});
