import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/fetch';
import { ApiError, apiBaseUrl, onLoggedOut, request, retryAfterSeconds } from './api';
import { readToken } from './session';

const signIn = (token = 'old-token') => {
  localStorage.setItem('token', JSON.stringify(token));
  localStorage.setItem('companyId', '1');
  localStorage.setItem('userId', '2');
};

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__ENV__;
});

describe('API client', () => {
  it('sends the stored bearer token with credentials to the API origin', async () => {
    signIn('abc');
    const calls = stubFetch(() => json(200, { ok: true }));

    await expect(
      request('GET', '/users', { query: { searchParam: 'ana', pageNumber: 2 } }),
    ).resolves.toEqual({
      ok: true,
    });

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url.origin).toBe(`${location.protocol}//${location.hostname}:8080`);
    expect(call?.url.pathname).toBe('/users');
    expect(call?.url.searchParams.get('searchParam')).toBe('ana');
    expect(call?.url.searchParams.get('pageNumber')).toBe('2');
    expect(call?.headers.get('authorization')).toBe('Bearer abc');
    expect(call?.credentials).toBe('include');
  });

  it('uses window.__ENV__.BACKEND_URL when the server sets it', () => {
    window.__ENV__ = { BACKEND_URL: 'https://api.example.com/' };
    expect(apiBaseUrl()).toBe('https://api.example.com');
  });

  it('on 403 refreshes the token once, stores it and retries with it', async () => {
    signIn('old-token');
    const calls = stubFetch(({ url, headers }) => {
      if (url.pathname === '/auth/refresh_token') return json(200, { token: 'new-token' });
      return headers.get('authorization') === 'Bearer new-token'
        ? json(200, [{ id: 1, name: 'Vendas' }])
        : json(403, { error: 'ERR_SESSION_EXPIRED' });
    });

    await expect(request('GET', '/queue')).resolves.toEqual([{ id: 1, name: 'Vendas' }]);

    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual([
      'GET /queue',
      'POST /auth/refresh_token',
      'GET /queue',
    ]);
    expect(calls[1]?.credentials).toBe('include');
    expect(readToken()).toBe('new-token');
  });

  it('retries only once: a second 403 is the answer', async () => {
    signIn();
    const calls = stubFetch(({ url }) =>
      url.pathname === '/auth/refresh_token'
        ? json(200, { token: 'new-token' })
        : json(403, { error: 'ERR_NO_PERMISSION' }),
    );

    const error = await request('GET', '/settings').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).code).toBe('ERR_NO_PERMISSION');
    expect(calls.filter((call) => call.url.pathname === '/auth/refresh_token')).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it('calls made together share one refresh', async () => {
    signIn();
    const calls = stubFetch(({ url, headers }) => {
      if (url.pathname === '/auth/refresh_token') return json(200, { token: 'fresh' });
      return headers.get('authorization') === 'Bearer fresh' ? json(200, {}) : json(403, {});
    });

    await Promise.all([request('GET', '/a'), request('GET', '/b'), request('GET', '/c')]);

    expect(calls.filter((call) => call.url.pathname === '/auth/refresh_token')).toHaveLength(1);
  });

  it('on 401 clears token and company and reports the logout', async () => {
    signIn();
    const loggedOut = vi.fn();
    const unsubscribe = onLoggedOut(loggedOut);
    stubFetch(() => json(401, { error: 'ERR_SESSION_EXPIRED' }));

    const error = await request('GET', '/auth/me').catch((caught: unknown) => caught);
    unsubscribe();

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).sessionEnded).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('companyId')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(loggedOut).toHaveBeenCalledTimes(1);
  });

  it('a refused refresh ends the session', async () => {
    signIn();
    const loggedOut = vi.fn();
    const unsubscribe = onLoggedOut(loggedOut);
    const calls = stubFetch(({ url }) =>
      url.pathname === '/auth/refresh_token'
        ? json(401, { error: 'ERR_SESSION_EXPIRED' })
        : json(403, { error: 'ERR_SESSION_EXPIRED' }),
    );

    await expect(request('GET', '/tickets')).rejects.toBeInstanceOf(ApiError);
    unsubscribe();

    expect(calls).toHaveLength(2);
    expect(readToken()).toBeNull();
    expect(loggedOut).toHaveBeenCalledTimes(1);
  });

  it('public calls keep the session on 401 (bad credentials are not a logout)', async () => {
    signIn('kept');
    const loggedOut = vi.fn();
    const unsubscribe = onLoggedOut(loggedOut);
    stubFetch(() => json(401, { error: 'ERR_INVALID_CREDENTIALS' }));

    const error = await request('POST', '/auth/login', {
      body: { email: 'a@b.c', password: 'x' },
      anonymous: true,
    }).catch((caught: unknown) => caught);
    unsubscribe();

    expect((error as ApiError).code).toBe('ERR_INVALID_CREDENTIALS');
    expect(readToken()).toBe('kept');
    expect(loggedOut).not.toHaveBeenCalled();
  });

  it('sends JSON bodies and reads empty answers', async () => {
    signIn();
    const calls = stubFetch(() => new Response(null, { status: 204 }));

    await expect(request('PUT', '/users/3', { body: { name: 'Bia' } })).resolves.toBeUndefined();

    expect(calls[0]?.method).toBe('PUT');
    expect(calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(calls[0]?.body).toEqual({ name: 'Bia' });
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds or an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(retryAfterSeconds('900', now)).toBe(900);
    expect(retryAfterSeconds(' 45 ', now)).toBe(45);
    expect(retryAfterSeconds('Sun, 01 Mar 2026 12:02:00 GMT', now)).toBe(120);
    expect(retryAfterSeconds('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});
