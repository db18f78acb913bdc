import type { Message, Ticket } from '@atendi/shared';

/** A ticket as GET /tickets answers it. */
export function ticketRow(id: number, overrides: Partial<Ticket> = {}): Ticket {
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    status: 'open',
    lastMessage: `Mensagem ${id}`,
    unreadMessages: 0,
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    contactId: 100 + id,
    contact: {
      id: 100 + id,
      name: `Contato ${id}`,
      number: `55119999${String(id).padStart(4, '0')}`,
      profilePicUrl: '',
      isGroup: false,
    },
    userId: 2,
    user: { id: 2, name: 'Ana Souza' },
    queueId: 3,
    queue: { id: 3, name: 'Suporte', color: '#1976d2' },
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Simulador' },
    tags: [],
    createdAt: '2026-01-10T12:00:00.000Z',
    updatedAt: '2026-01-10T12:00:00.000Z',
    ...overrides,
  };
}

/** A message as GET /messages/:ticketId answers it. */
export function messageRow(id: number, overrides: Partial<Message> = {}): Message {
  return {
    id,
    ticketId: 1,
    body: `Texto ${id}`,
    fromMe: id % 2 === 0,
    read: true,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    ack: 2,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    contactId: 101,
    createdAt: new Date(Date.UTC(2026, 0, 10, 12, 0, id)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 10, 12, 0, id)).toISOString(),
    quotedMsgId: null,
    quotedMsg: null,
    contact: null,
    ...overrides,
  };
}
