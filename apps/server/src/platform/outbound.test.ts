import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  embeddedIpv4,
  isPrivateAddress,
  OutboundFailed,
  OutboundRefused,
  outboundRequest,
  resolveTarget,
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

describe('resolveTarget', () => {
  it('refuses names that resolve to loopback, literal private addresses and other protocols', async () => {
    await expect(resolveTarget('http://localhost:8080/x', false)).rejects.toBeInstanceOf(
      OutboundRefused,
    );
    await expect(resolveTarget('http://[::ffff:127.0.0.1]/', false)).rejects.toBeInstanceOf(
      OutboundRefused,
    );
    await expect(resolveTarget('http://169.254.169.254/latest', false)).rejects.toBeInstanceOf(
      OutboundRefused,
    );
    await expect(resolveTarget('file:///etc/passwd', true)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(resolveTarget('http://user:pw@8.8.8.8/', false)).rejects.toBeInstanceOf(
      OutboundRefused,
    );
  });

  it('lets a public literal address through, and private ones when the operator allows them', async () => {
    await expect(resolveTarget('https://8.8.8.8/x', false)).resolves.toMatchObject({
      address: '8.8.8.8',
      family: 4,
    });
    await expect(resolveTarget('http://localhost:1/', true)).resolves.toMatchObject({
      url: expect.any(URL),
    });
  });
});

describe('outboundRequest', () => {
  let server: Server;
  let port = 0;
  const seen: { host?: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push({ host: req.headers.host, body });
        res.writeHead(req.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ got: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a local receiver unless private targets are allowed', async () => {
    await expect(
      outboundRequest(`http://127.0.0.1:${port}/`, { timeoutMs: 2_000 }, false),
    ).rejects.toBeInstanceOf(OutboundRefused);
    expect(seen).toHaveLength(0);
  });

  it('posts to the checked address, keeps the Host header and answers any status', async () => {
    const ok = await outboundRequest(
      `http://127.0.0.1:${port}/hook`,
      {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'content-type': 'application/json' },
        timeoutMs: 2_000,
      },
      true,
    );
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ got: '{"a":1}' });
    expect(seen.at(-1)?.host).toBe(`127.0.0.1:${port}`);
    const failed = await outboundRequest(
      `http://127.0.0.1:${port}/fail`,
      { timeoutMs: 2_000 },
      true,
    );
    expect(failed.status).toBe(500);
  });

  it('reports a connection that fails', async () => {
    await expect(
      outboundRequest('http://127.0.0.1:1/', { timeoutMs: 2_000 }, true),
    ).rejects.toBeInstanceOf(OutboundFailed);
  });
});
