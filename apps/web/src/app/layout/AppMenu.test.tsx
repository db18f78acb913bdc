import type { Connection } from '@atendi/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch';
import { connectionRecord } from '../../test/records';
import { renderWithApp, sessionUser } from '../../test/render';
import { AppMenu } from './AppMenu';

const connection = (id: number, status: string) =>
  connectionRecord(id, `Conexão ${id}`, status as Connection['status'], { isDefault: id === 1 });

function serve(statuses: string[]) {
  return stubFetch((call) => {
    if (call.url.pathname === '/whatsapp') {
      return json(
        200,
        statuses.map((status, index) => connection(index + 1, status)),
      );
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

const connectionsLink = () =>
  within(screen.getByRole('navigation', { name: 'Menu principal' })).getByRole('link', {
    name: /^Conexões/,
  });

/** Moves the clock past the 2 s after which the menu first looks at the connections. */
async function afterCheck() {
  await act(async () => {
    vi.advanceTimersByTime(2_000);
  });
}

beforeEach(() => {
  // the clock also runs by itself, so the page's own waits and retries keep working
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the '!' badge on Conexões", () => {
  it('looks at the connections only 2 s after the menu loads', async () => {
    const calls = serve(['DISCONNECTED']);
    renderWithApp(<AppMenu user={sessionUser({ profile: 'admin' })} mini={false} />);
    await screen.findByRole('navigation', { name: 'Menu principal' });
    await act(async () => {
      vi.advanceTimersByTime(1_900);
    });
    expect(calls.some((call) => call.url.pathname === '/whatsapp')).toBe(false);
    expect(connectionsLink().textContent).not.toContain('!');

    await afterCheck();
    await waitFor(() =>
      expect(connectionsLink().getAttribute('aria-label')).toBe(
        'Conexões (uma conexão precisa de atenção)',
      ),
    );
    expect(connectionsLink().textContent).toContain('!');
    expect(calls.filter((call) => call.url.pathname === '/whatsapp')).toHaveLength(1);
  });

  it.each(['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'])(
    'is shown while a connection is %s',
    async (status) => {
      serve(['CONNECTED', status]);
      renderWithApp(<AppMenu user={sessionUser({ profile: 'admin' })} mini={false} />);
      await screen.findByRole('navigation', { name: 'Menu principal' });
      await afterCheck();
      await waitFor(() => expect(connectionsLink().textContent).toContain('!'));
      expect(connectionsLink().getAttribute('aria-label')).toBe(
        'Conexões (uma conexão precisa de atenção)',
      );
    },
  );

  it('is not shown when every connection is CONNECTED', async () => {
    const calls = serve(['CONNECTED', 'CONNECTED']);
    renderWithApp(<AppMenu user={sessionUser({ profile: 'admin' })} mini={true} />);
    await screen.findByRole('navigation', { name: 'Menu principal' });
    await afterCheck();
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/whatsapp')).toBe(true));
    // one more turn for the answer to be rendered
    await act(async () => {
      vi.advanceTimersByTime(50);
    });
    expect(connectionsLink().getAttribute('aria-label')).toBe('Conexões');
    expect(connectionsLink().textContent).not.toContain('!');
  });

  it('is never looked for by a user who cannot manage connections', async () => {
    const calls = serve(['DISCONNECTED']);
    renderWithApp(<AppMenu user={sessionUser({ profile: 'user' })} mini={false} />);
    await screen.findByRole('navigation', { name: 'Menu principal' });
    await afterCheck();
    await act(async () => {
      vi.advanceTimersByTime(500);
    });
    expect(calls.some((call) => call.url.pathname === '/whatsapp')).toBe(false);
  });
});
