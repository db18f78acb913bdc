import type { KanbanCard as Card } from '@atendi/shared';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../app/i18n';
import { renderWithApp } from '../../../test/render';
import { KanbanCard } from './KanbanCard';

beforeAll(async () => {
  await i18n.loadNamespaces(['kanban']);
});

const card = (lastMessage: string): Card => ({
  id: 9,
  uuid: '00000000-0000-4000-8000-000000000009',
  status: 'open',
  lastMessage,
  unreadMessages: 0,
  contactId: 3,
  contact: { id: 3, name: 'Maria', number: '5511900000009', profilePicUrl: '', isGroup: false },
  userId: null,
  queueId: null,
  tags: [],
  updatedAt: '2030-01-01T00:00:00.000Z',
});

describe('KanbanCard', () => {
  it("shows the last message as WhatsApp does: the agent's signature in bold, no raw marks", () => {
    renderWithApp(<KanbanCard ticket={card('*Ana Atendente*:\nSeu pedido _saiu_')} />);
    const name = screen.getByText('Ana Atendente');
    expect(name.tagName).toBe('B');
    const text = name.parentElement!;
    expect(text.textContent).toBe('Ana Atendente:\nSeu pedido saiu');
    expect(text.querySelector('i')?.textContent).toBe('saiu');
  });
});
