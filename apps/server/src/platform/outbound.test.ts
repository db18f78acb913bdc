import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowance } from '../config';
import {
  embeddedIpv4,
  isPrivateAddress,
  OutboundClient,
  OutboundFailed,
  OutboundRefused,
} from './outbound';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:c0a8:0101',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    '192.0.2.7',
    '198.51.100.1',
    '2001:db8::1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('lets %s through', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('reads the IPv4 address inside mapped and 6to4 forms', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('2002:0a00:0001::1')).toBe('10.0.0.1');
    expect(embeddedIpv4('2606:4700::1')).toBeUndefined();
  });
});

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A local HTTP server that records every request it gets. */
async function listener(
  answer: (
    req: IncomingMessage,
    body: string,
  ) => { status: number; headers?: Record<string, string>; body?: string },
) {
  const seen: {
    url?: string;
    method?: string;
    headers: IncomingMessage['headers'];
    body: string;
  }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ url: req.url, method: req.method, headers: req.headers, body });
      const reply = answer(req, body);
      res.writeHead(reply.status, reply.headers).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OutboundClient', () => {
  /** The internal service an attacker aims at: it must never be reached. */
  let internal: Awaited<ReturnType<typeof listener>>;
  /** A server the guard lets through (as a public one would be), that redirects or answers. */
  let allowed: Awaited<ReturnType<typeof listener>>;
  /** Allows `allowed` only, as an operator would allow one self-hosted service. */
  let client: OutboundClient;

  beforeAll(async () => {
    internal = await listener(() => ({ status: 200, body: 'internal secrets' }));
    allowed = await listener((req, body): Reply => {
      const url = new URL(req.url ?? '/', 'http://x');
      const to = url.searchParams.get('to');
      if (to)
        return { status: Number(url.searchParams.get('status') ?? 302), headers: { location: to } };
      if (url.pathname === '/big') return { status: 200, body: 'x'.repeat(5_000) };
      if (url.pathname === '/fail') return { status: 500, body: 'no' };
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ got: body }),
      };
    });
    client = new OutboundClient({
      allowPrivate: parseAllowance(`127.0.0.1:${allowed.port}`),
      timeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await client.close();
    await internal.close();
    await allowed.close();
  });

  it('never reaches a private address, however it is written', async () => {
    const guarded = new OutboundClient({ allowPrivate: false, timeoutMs: 5_000 });
    const { port } = internal;
    const addresses = [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://0.0.0.0:${port}/`,
      `https://127.0.0.1:${port}/`,
      `http://169.254.169.254/latest/meta-data`,
    ];
    for (const address of addresses) {
      await expect(guarded.request(address), address).rejects.toBeInstanceOf(OutboundRefused);
    }
    for (const address of [
      'file:///etc/passwd',
      'gopher://127.0.0.1/',
      'http://user:pw@8.8.8.8/',
    ]) {
      await expect(guarded.request(address), address).rejects.toBeInstanceOf(OutboundRefused);
    }
    await guarded.close();
    expect(internal.seen).toEqual([]);
  });

  it('lets through only the private hosts the operator lists', async () => {
    await expect(client.request(`${internal.url}/`)).rejects.toBeInstanceOf(OutboundRefused);
    expect(internal.seen).toEqual([]);
    const ok = await client.request(`${allowed.url}/hook`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ got: '{"a":1}' });
    expect(allowed.seen.at(-1)?.headers.host).toBe(`127.0.0.1:${allowed.port}`);
    expect((await client.request(`${allowed.url}/fail`)).status).toBe(500);
  });

  it('re-checks every redirect: an allowed address cannot lead to a private one', async () => {
    const before = allowed.seen.length;
    for (const [status, target] of [
      [302, `${internal.url}/admin`],
      [307, `http://localhost:${internal.port}/admin`],
      [308, `http://[::ffff:127.0.0.1]:${internal.port}/`],
      [301, `http://2130706433:${internal.port}/`],
    ] as const) {
      const hop = `${allowed.url}/r?status=${status}&to=${encodeURIComponent(target)}`;
      await expect(client.request(hop, { method: 'POST', body: 'x' })).rejects.toBeInstanceOf(
        OutboundRefused,
      );
    }
    expect(allowed.seen.length - before).toBe(4);
    expect(internal.seen).toEqual([]);
  });

  it('follows a few redirects itself, and sends credentials to their own host only', async () => {
    const other = await listener(() => ({ status: 200, body: 'moved here' }));
    const open = new OutboundClient({
      allowPrivate: parseAllowance(`127.0.0.1:${allowed.port},127.0.0.1:${other.port}`),
      timeoutMs: 5_000,
    });
    try {
      const hop = `${allowed.url}/r?to=${encodeURIComponent(`${other.url}/file`)}`;
      const answer = await open.request(hop, {
        headers: { authorization: 'Bearer company-token', cookie: 'sid=1', 'x-plain': 'yes' },
        credentials: { access_token: 'company-key' },
      });
      expect(answer.text).toBe('moved here');
      expect(answer.url).toBe(`${other.url}/file`);
      // The first host got the credentials; the host it redirected to got none of them.
      expect(allowed.seen.at(-1)?.headers).toMatchObject({
        authorization: 'Bearer company-token',
        access_token: 'company-key',
      });
      const moved = other.seen.at(-1)!.headers;
      expect(moved['x-plain']).toBe('yes');
      expect(moved.authorization).toBeUndefined();
      expect(moved.cookie).toBeUndefined();
      expect(moved.access_token).toBeUndefined();

      // A chain longer than allowed is refused, and so is a redirect when none may be followed.
      let chain = `${other.url}/end`;
      for (let i = 0; i < 4; i++) chain = `${allowed.url}/r?to=${encodeURIComponent(chain)}`;
      await expect(open.request(chain)).rejects.toBeInstanceOf(OutboundFailed);
      const kept = await open.request(hop, { maxRedirects: 0 });
      expect(kept.status).toBe(302);
    } finally {
      await open.close();
      await other.close();
    }
  });

  it('bounds the answer and the time', async () => {
    await expect(client.request(`${allowed.url}/big`, { maxBytes: 1_000 })).rejects.toThrow(
      /larger than 1000 bytes/,
    );
    const stream = await client.stream(`${allowed.url}/big`, { maxBytes: 1_000 });
    await expect(
      (async () => {
        for await (const _ of stream.body) {
        }
      })(),
    ).rejects.toThrow(/larger than 1000 bytes/);
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const slow = new OutboundClient({ allowPrivate: true, timeoutMs: 5_000 });
    try {
      await expect(slow.request(`http://127.0.0.1:${port}/`, { timeoutMs: 200 })).rejects.toThrow(
        /timed out/,
      );
    } finally {
      await slow.close();
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('reports a connection that fails as never sent', async () => {
    const open = new OutboundClient({ allowPrivate: true, timeoutMs: 2_000 });
    const error = await open.request('http://127.0.0.1:1/').catch((caught: unknown) => caught);
    await open.close();
    expect(error).toBeInstanceOf(OutboundFailed);
    expect((error as OutboundFailed).notSent).toBe(true);
  });
});
