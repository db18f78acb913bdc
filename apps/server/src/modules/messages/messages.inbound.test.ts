import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import type { InboundMessage } from '../../channels/provider';
import {
  connections,
  contacts,
  messages,
  settings as settingsTable,
  tickets,
} from '../../db/schema';
import { TenantDb } from '../../db/tenant';
import { preview } from './messages.inbound';

let t: TestServer;
let ref: { id: number; companyId: number; name: string };
let sequence = 0;

beforeAll(async () => {
  t = await startTestServer();
  const { company } = await t.make.company();
  const [connection] = await new TenantDb(t.database.db, company.id)
    .insert(connections, { name: 'Simulador', provider: 'simulator', isDefault: true })
    .returning();
  ref = { id: connection!.id, companyId: company.id, name: connection!.name };
  // Groups are taken in this file unless a test says otherwise (they are ignored by default).
  await groupsIgnored(company.id, 'disabled');
});
afterAll(() => t.stop());

/** The company's CheckMsgIsGroup setting ('enabled': group messages are not taken). */
async function groupsIgnored(companyId: number, value: 'enabled' | 'disabled') {
  await new TenantDb(t.database.db, companyId)
    .insert(settingsTable, { key: 'CheckMsgIsGroup', value })
    .onConflictDoUpdate({ target: [settingsTable.companyId, settingsTable.key], set: { value } });
}

const inbound = (fields: Partial<InboundMessage> & Pick<InboundMessage, 'chatId' | 'contact'>) =>
  t.app.services.inbound.receive(ref, {
    providerMessageId: `IN-${++sequence}`,
    isGroup: false,
    fromMe: false,
    timestamp: new Date(),
    kind: 'text',
    body: `mensagem ${sequence}`,
    ...fields,
  });

const contactRows = (where: ReturnType<typeof eq>) =>
  t.database.db.select().from(contacts).where(where);

describe('inbound pipeline', () => {
  it('keeps a person first known by LID and later by number as one contact and one ticket', async () => {
    const lid = '98765432101234@lid';
    expect(await inbound({ chatId: lid, contact: { number: lid, lid, name: 'Ana' } })).toBe(
      'stored',
    );
    const [before] = await contactRows(eq(contacts.lid, lid));
    expect(before!.number).toBe(lid);

    await inbound({
      chatId: '5511912345678',
      contact: { number: '5511912345678', lid, name: 'Ana' },
    });
    const byLid = await contactRows(eq(contacts.lid, lid));
    expect(byLid).toHaveLength(1);
    expect(byLid[0]).toMatchObject({ id: before!.id, number: '5511912345678' });
    const live = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.contactId, before!.id));
    expect(live).toHaveLength(1);
    expect(live[0]!.unreadMessages).toBe(2);
  });

  it('stores a group message on the group ticket with the sender as its contact', async () => {
    await inbound({
      chatId: '120363000000000001@g.us',
      isGroup: true,
      groupName: 'Clientes VIP',
      contact: { number: '5511988887777', name: 'Bruno' },
      body: 'oi grupo',
    });
    const [group] = await contactRows(eq(contacts.number, '120363000000000001@g.us'));
    const [sender] = await contactRows(eq(contacts.number, '5511988887777'));
    expect(group).toMatchObject({ name: 'Clientes VIP', isGroup: true });
    expect(sender).toMatchObject({ name: 'Bruno', isGroup: false });
    const [message] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.body, 'oi grupo'));
    const [ticket] = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.id, message!.ticketId));
    expect(ticket).toMatchObject({ contactId: group!.id, isGroup: true });
    expect(message!.contactId).toBe(sender!.id);
  });

  it('answers duplicate for a redelivery and links a quoted reply', async () => {
    const first: InboundMessage = {
      providerMessageId: 'QUOTED-1',
      chatId: '5511933332222',
      isGroup: false,
      fromMe: false,
      timestamp: new Date(),
      kind: 'text',
      body: 'primeira',
      contact: { number: '5511933332222' },
    };
    expect(await t.app.services.inbound.receive(ref, first)).toBe('stored');
    expect(await t.app.services.inbound.receive(ref, first)).toBe('duplicate');
    await inbound({
      chatId: '5511933332222',
      contact: { number: '5511933332222' },
      body: 'respondendo',
      quotedProviderMessageId: 'QUOTED-1',
    });
    const [quoted] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.providerMessageId, 'QUOTED-1'));
    const [reply] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.body, 'respondendo'));
    expect(reply!.quotedMsgId).toBe(quoted!.id);
  });

  it('keeps the name someone typed and takes the push name only for contacts named by number', async () => {
    await inbound({ chatId: '5511944443333', contact: { number: '5511944443333' } });
    expect((await contactRows(eq(contacts.number, '5511944443333')))[0]!.name).toBe(
      '5511944443333',
    );
    await inbound({ chatId: '5511944443333', contact: { number: '5511944443333', name: 'Carla' } });
    expect((await contactRows(eq(contacts.number, '5511944443333')))[0]!.name).toBe('Carla');
    await inbound({ chatId: '5511944443333', contact: { number: '5511944443333', name: 'Outro' } });
    expect((await contactRows(eq(contacts.number, '5511944443333')))[0]!.name).toBe('Carla');
  });
});

describe('inbound messages arriving together', () => {
  const bodiesOf = async (chatId: string) =>
    (
      await t.database.db
        .select({ body: messages.body })
        .from(messages)
        .innerJoin(contacts, eq(contacts.id, messages.contactId))
        .where(eq(contacts.number, chatId))
        .orderBy(messages.id)
    ).map((row) => row.body);

  it('are stored apart when the database refuses one of them: only that one fails', async () => {
    const chats = ['5511977770001', '5511977770002', '5511977770003'];
    const results = await Promise.allSettled(
      chats.map((chatId, index) =>
        inbound({
          chatId,
          contact: { number: chatId, name: 'Lote' },
          // A NUL character is text PostgreSQL refuses: the whole statement fails with it.
          body: index === 1 ? 'com \u0000 dentro' : `lote ${index}`,
        }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await bodiesOf(chats[0]!)).toEqual(['lote 0']);
    expect(await bodiesOf(chats[1]!)).toEqual([]);
    expect(await bodiesOf(chats[2]!)).toEqual(['lote 2']);
  });

  it('of one chat are stored in the order they came, and the same message once', async () => {
    const chatId = '5511977770011';
    const contact = { number: chatId, name: 'Ordem' };
    const same: InboundMessage = {
      providerMessageId: 'TOGETHER-1',
      chatId,
      isGroup: false,
      fromMe: false,
      timestamp: new Date(),
      kind: 'text',
      body: 'a mesma',
      contact,
    };
    const results = await Promise.all([
      inbound({ chatId, contact, body: 'primeira' }),
      t.app.services.inbound.receive(ref, same),
      t.app.services.inbound.receive(ref, same),
      inbound({ chatId, contact, body: 'última' }),
    ]);
    expect(results).toEqual(['stored', 'stored', 'duplicate', 'stored']);
    expect(await bodiesOf(chatId)).toEqual(['primeira', 'a mesma', 'última']);
  });
});

describe('the ticket list preview of an inbound message', () => {
  it('is the text typed, or a label for media, a location and a contact card', () => {
    expect(preview({ kind: 'text', body: 'Bom dia' })).toBe('Bom dia');
    expect(preview({ kind: 'image', body: 'A foto' })).toBe('A foto');
    expect(preview({ kind: 'image', body: '' })).toBe('📷 Imagem');
    expect(
      preview({ kind: 'location', body: 'https://maps.google.com/maps?q=-23.5%2C-46.6&z=17' }),
    ).toBe('📍 Localização');
    // A contact card shows the card's name, never its vCard.
    expect(
      preview({ kind: 'contact', body: 'BEGIN:VCARD\nVERSION:3.0\nFN:Maria\\, Silva\nEND:VCARD' }),
    ).toBe('👤 Maria, Silva');
    expect(preview({ kind: 'contact', body: 'BEGIN:VCARD\nTEL:+5511\nEND:VCARD' })).toBe(
      '👤 Contato',
    );
    // A missed call says so, whatever note the network gave it.
    expect(preview({ kind: 'call_log', body: '' })).toBe('📞 Chamada perdida');
    expect(preview({ kind: 'call_log', body: 'Chamada de voz/vídeo perdida às 10:30' })).toBe(
      '📞 Chamada perdida',
    );
    expect(preview({ kind: 'audio', body: '' })).toBe('🎤 Áudio');
    expect(preview({ kind: 'document', body: '' })).toBe('📄 Documento');
    expect(preview({ kind: 'text', body: 'x'.repeat(300) })).toHaveLength(255);
  });

  it('drops group messages for a company that ignores groups, whatever the provider', async () => {
    const group = { chatId: '120363000000000001@g.us', isGroup: true, groupName: 'Grupo' };
    const sender = { number: '5511955550001', name: 'Participante' };
    await groupsIgnored(ref.companyId, 'enabled');
    expect(await inbound({ ...group, contact: sender, body: 'no grupo 1' })).toBe('ignored');
    expect(
      await t.database.db.select().from(messages).where(eq(messages.body, 'no grupo 1')),
    ).toEqual([]);
    await groupsIgnored(ref.companyId, 'disabled');
    expect(await inbound({ ...group, contact: sender, body: 'no grupo 2' })).toBe('stored');
  });
});
