import type { RealtimePayloads, Tag } from '@atendi/shared';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/fetch';
import { renderWithApp, sessionUser } from '../test/render';
import { fakeSocket } from '../test/socket';
import { RequireSession } from './guards';
import { SocketContext, useCompanyEvent } from './socket';

/**
 * Never called: tsc (npm run typecheck) compiles these handlers against the shared payload map,
 * which the server's gateway emits by (apps/server/src/platform/realtime.test.ts). Each
 * `@ts-expect-error` fails the build once the read it marks compiles.
 */
export function useReadsTheMapRefuses() {
  useCompanyEvent('tag', (event) => {
    // @ts-expect-error a deletion names the tag's id only
    if (event.action === 'delete') void event.tag;
    // @ts-expect-error a saved tag carries no id beside it
    else void event.tagId;
  });
  useCompanyEvent('ticket', (event) => {
    // @ts-expect-error an update carries the ticket, not its id beside it
    if (event.action === 'update') void event.ticketId;
  });
  useCompanyEvent('user', (event) => {
    // @ts-expect-error not every action carries the user
    void event.user;
  });
  useCompanyEvent('whatsapp', (event) => {
    // @ts-expect-error the connection's token is never emitted
    if (event.action !== 'delete') event.whatsapp.token?.length;
  });
  useCompanyEvent('appMessage', (event) => {
    // @ts-expect-error a message's ticket is a whole record: its contact has a name
    const name: number = event.ticket.contact.name;
    void name;
  });
  // @ts-expect-error a misspelt topic
  useCompanyEvent('tags', () => {});
}

const tagRecord = (id: number, name: string): Tag => ({
  id,
  name,
  color: '#ff0000',
  kanban: 0,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

function Heard() {
  const [heard, setHeard] = useState<RealtimePayloads['tag'][]>([]);
  useCompanyEvent('tag', (event) => setHeard((list) => [...list, event]));
  return (
    <ul aria-label="heard">
      {heard.map((event) => (
        <li key={event.action === 'delete' ? `d${event.tagId}` : `s${event.tag.id}`}>
          {event.action === 'delete' ? `${event.tagId} deleted` : event.tag.name}
        </li>
      ))}
    </ul>
  );
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a company event subscription', () => {
  it("hears its topic on the signed-in user's company, not on another company's", async () => {
    stubFetch((call) =>
      call.url.pathname === '/auth/me'
        ? json(200, sessionUser({ companyId: 3, company: { id: 3 } }))
        : json(404, { error: 'ERR_NOT_FOUND' }),
    );
    const socket = fakeSocket();
    renderWithApp(
      <SocketContext.Provider value={socket.socket}>
        <RequireSession>
          <Heard />
        </RequireSession>
      </SocketContext.Provider>,
    );
    const list = await screen.findByRole('list', { name: 'heard' });
    socket.serverEmit('company-1-tag', { action: 'create', tag: tagRecord(1, 'Outra empresa') });
    socket.serverEmit('company-3-tag', { action: 'create', tag: tagRecord(2, 'Urgente') });
    socket.serverEmit('company-3-tag', { action: 'delete', tagId: 5 });
    expect(Array.from(list.children, (item) => item.textContent)).toEqual(['Urgente', '5 deleted']);
  });
});
