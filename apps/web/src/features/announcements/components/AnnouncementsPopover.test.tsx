import type { Announcement } from '@atendi/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { AnnouncementsPopover } from './AnnouncementsPopover';

const record = (id: number, title: string, priority: number): Announcement => ({
  id,
  title,
  text: `Texto ${title}`,
  priority,
  status: true,
  mediaPath: null,
  mediaName: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

beforeAll(async () => {
  await i18n.loadNamespaces(['announcements']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AnnouncementsPopover', () => {
  it('counts and lists the active announcements in their colours, live', async () => {
    let records = [record(1, 'Manutenção', 1)];
    stubFetch((call) => {
      if (call.url.pathname === '/auth/me') return json(200, sessionUser());
      if (call.url.pathname === '/announcements') {
        return json(200, { records, count: records.length, hasMore: false });
      }
      return json(404, {});
    });
    const { socket, serverEmit } = fakeSocket();
    renderWithApp(
      <SocketContext.Provider value={socket}>
        <RequireSession>
          <AnnouncementsPopover />
        </RequireSession>
      </SocketContext.Provider>,
    );
    expect(
      await screen.findByRole('button', { name: 'Informativos (1 informativos)' }),
    ).toBeTruthy();

    records = [record(2, 'Novidade', 2), ...records];
    serverEmit('company-announcement', { action: 'create', record: records[0] });
    const button = await screen.findByRole('button', { name: 'Informativos (2 informativos)' });
    fireEvent.click(button);
    const popover = await screen.findByRole('dialog', { name: 'Informativos' });
    expect(within(popover).getByText('Texto Novidade')).toBeTruthy();
    expect(within(popover).getByText('Alta')).toBeTruthy();
    expect(within(popover).getByText('Média')).toBeTruthy();
  });
});
