import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Requests to addresses a company typed in (webhooks, n8n, Typebot, Dialogflow's token URL),
 * guarded against server-side request forgery: the host is resolved (every address), any
 * loopback, private, link-local, unique-local, CGNAT, unspecified, multicast or reserved
 * address refuses the request, and the connection is made to the address that was checked, so
 * a DNS answer that changes between the check and the connect (rebinding) cannot switch it.
 * An operator may allow private targets (OUTBOUND_ALLOW_PRIVATE), as the tests do for their
 * local fakes.
 */

export class OutboundRefused extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`refused outbound request to ${url}: ${reason}`);
    this.name = 'OutboundRefused';
  }
}

export class OutboundFailed extends Error {
  constructor(
    readonly url: string,
    detail: string,
  ) {
    super(`request to ${url} failed: ${detail}`);
    this.name = 'OutboundFailed';
  }
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (with an IPv4 tail read as two groups). */
function groupsOf(address: string): number[] | undefined {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const octets = tail[1]!.split('.').map(Number);
    if (octets.some((octet) => octet > 255)) return undefined;
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    text = `${text.slice(0, -tail[1]!.length)}${hex(octets[0]!, octets[1]!)}:${hex(octets[2]!, octets[3]!)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? left.length !== 8 : missing < 1) return undefined;
  const groups = [...left, ...Array(rest === undefined ? 0 : missing).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group || '0', 16));
}

const v4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), if it carries one. */
export function embeddedIpv4(address: string): string | undefined {
  const g = groupsOf(address);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated)
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!);
  // ::a.b.c.d (compatible, deprecated), but not :: and ::1 themselves
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4(g[6]!, g[7]!);
  // 64:ff9b::a.b.c.d (NAT64)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  // 2002:AABB:CCDD::/48 (6to4)
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** Whether the address is one an outside request must not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner) return blocked.check(inner, 'ipv4');
  return blocked.check(address.split('%')[0]!, 'ipv6');
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Resolves the URL's host and checks every address; the first one is the one to connect to. */
export async function resolveTarget(
  raw: string,
  allowPrivate: boolean,
  timeoutMs = 10_000,
): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefused(raw, `protocol ${url.protocol} is not http(s)`);
  }
  if (url.username || url.password) throw new OutboundRefused(raw, 'credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      // The resolver has no time limit of its own: an unreachable DNS server must not hang us.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })),
          timeoutMs,
        );
      });
      addresses = await Promise.race([lookup(host, { all: true, verbatim: true }), late]).finally(
        () => clearTimeout(timer),
      );
    } catch (error) {
      throw new OutboundFailed(
        raw,
        `cannot resolve ${host} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  if (addresses.length === 0) throw new OutboundFailed(raw, `cannot resolve ${host}`);
  if (!allowPrivate) {
    const bad = addresses.find((entry) => isPrivateAddress(entry.address));
    if (bad)
      throw new OutboundRefused(raw, `${host} resolves to a private address (${bad.address})`);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** Answers longer than this are cut off: nobody reads a megabyte of an error page. */
const MAX_ANSWER_BYTES = 1_048_576;

/**
 * One guarded HTTP(S) request. Redirects are not followed (a redirect could point anywhere);
 * the answer, whatever its status, is returned to the caller.
 */
export async function outboundRequest(
  raw: string,
  request: OutboundRequest,
  allowPrivate: boolean,
): Promise<OutboundResponse> {
  const target = await resolveTarget(raw, allowPrivate, request.timeoutMs);
  // The connection goes to the checked address, whatever the resolver would say now.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
      return;
    }
    callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = client.request(
      target.url,
      {
        method: request.method ?? 'GET',
        headers: {
          ...(request.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(request.body)) }
            : {}),
          ...request.headers,
        },
        lookup: pinned,
        timeout: request.timeoutMs,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on('error', (error) => reject(new OutboundFailed(raw, error.message)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => reject(new OutboundFailed(raw, error.message)));
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}
