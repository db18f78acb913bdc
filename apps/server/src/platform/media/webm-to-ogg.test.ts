import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OGG_VENDOR, WebmToOggError, webmToOgg } from './webm-to-ogg';

/**
 * A voice note as Chromium records it: /usr/bin/chromium (Playwright) started with
 * --use-fake-ui-for-media-stream --use-fake-device-for-media-stream (the fake microphone beeps),
 * getUserMedia({ audio: true }) and new MediaRecorder(stream, { audioBitsPerSecond: 128_000 })
 * stopped after 2 s on a page served from 127.0.0.1; the blob ('audio/webm;codecs=opus') written
 * out as it came.
 */
const FIXTURE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../test/fixtures/voice-note.webm',
);
const webm = readFileSync(FIXTURE);

interface Page {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  crc: number;
  raw: Buffer;
  segments: number[];
  body: Buffer;
}

/** The pages of an Ogg stream, read the long way (RFC 3533 section 6). */
function pagesOf(ogg: Buffer): Page[] {
  const pages: Page[] = [];
  let at = 0;
  while (at < ogg.length) {
    expect(ogg.toString('latin1', at, at + 4)).toBe('OggS');
    const count = ogg[at + 26]!;
    const segments = [...ogg.subarray(at + 27, at + 27 + count)];
    const bodyStart = at + 27 + count;
    const bodyEnd = bodyStart + segments.reduce((a, b) => a + b, 0);
    pages.push({
      flags: ogg[at + 5]!,
      granule: ogg.readBigInt64LE(at + 6),
      serial: ogg.readUInt32LE(at + 14),
      sequence: ogg.readUInt32LE(at + 18),
      crc: ogg.readUInt32LE(at + 22),
      raw: ogg.subarray(at, bodyEnd),
      segments,
      body: ogg.subarray(bodyStart, bodyEnd),
    });
    at = bodyEnd;
  }
  return pages;
}

/** Bit by bit, MSB first, polynomial 0x04C11DB7, over the page with its CRC field zeroed. */
function checksum(page: Buffer): number {
  const copy = Buffer.from(page);
  copy.fill(0, 22, 26);
  let crc = 0;
  for (const byte of copy) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) {
      const high = crc & 0x80000000;
      crc <<= 1;
      if (high) crc ^= 0x04c11db7;
    }
  }
  return crc >>> 0;
}

/** The packets of the stream, joined across pages by their lacing values. */
function packetsOf(pages: Page[]): Buffer[] {
  const packets: Buffer[] = [];
  let partial: Buffer[] = [];
  for (const page of pages) {
    let at = 0;
    for (const value of page.segments) {
      partial.push(page.body.subarray(at, at + value));
      at += value;
      if (value < 255) {
        packets.push(Buffer.concat(partial));
        partial = [];
      }
    }
  }
  expect(partial).toEqual([]);
  return packets;
}

/**
 * The fixture's blocks by a plain scan: every SimpleBlock (0xA3) inside a Cluster, its
 * timestamp (cluster's plus its own) and payload. The fixture has no lacing.
 */
function blocksOf(file: Buffer) {
  const vint = (at: number, keep: boolean) => {
    let length = 1;
    while (!(file[at]! & (0x80 >> (length - 1)))) length++;
    let value = keep ? file[at]! : file[at]! & (0xff >> length);
    for (let i = 1; i < length; i++) value = value * 256 + file[at + i]!;
    return { value, next: at + length };
  };
  const containers = new Set([0x18538067, 0x1f43b675]);
  const blocks: { time: number; payload: Buffer }[] = [];
  let clusterTime = 0;
  let at = 0;
  while (at < file.length) {
    const id = vint(at, true);
    const size = vint(id.next, false);
    if (!containers.has(id.value)) {
      if (id.value === 0xe7) clusterTime = file.readUIntBE(size.next, size.value);
      if (id.value === 0xa3) {
        const track = vint(size.next, false);
        blocks.push({
          time: clusterTime + file.readInt16BE(track.next),
          payload: file.subarray(track.next + 3, size.next + size.value),
        });
      }
      at = size.next + size.value;
    } else {
      at = size.next;
    }
  }
  return blocks;
}

/** A copy with every occurrence of `from` replaced by `to` (of the same length). */
function patched(file: Buffer, from: number[], to: number[]) {
  const copy = Buffer.from(file);
  let found = 0;
  for (let at = copy.indexOf(Buffer.from(from)); at >= 0; at = copy.indexOf(Buffer.from(from))) {
    Buffer.from(to).copy(copy, at);
    found++;
  }
  expect(found).toBeGreaterThan(0);
  return copy;
}

const failureOf = (input: Buffer) => {
  try {
    webmToOgg(input);
  } catch (error) {
    if (error instanceof WebmToOggError) return error.reason;
    throw error;
  }
  return 'converted';
};

describe('webmToOgg', () => {
  it('rewrites a recorded voice note as Ogg Opus pages with the same packets', () => {
    const ogg = webmToOgg(webm);
    expect(ogg.toString('latin1', 0, 4)).toBe('OggS');
    const pages = pagesOf(ogg);
    expect(pages.length).toBeGreaterThanOrEqual(3);

    const [head, tags] = pages;
    expect(head!.flags).toBe(0x02);
    expect(head!.body.toString('latin1', 0, 8)).toBe('OpusHead');
    expect(head!.body[9]).toBe(1);
    expect(tags!.flags).toBe(0);
    expect(tags!.body.toString('latin1', 0, 8)).toBe('OpusTags');
    expect(tags!.body.toString('utf8', 12, 12 + tags!.body.readUInt32LE(8))).toBe(OGG_VENDOR);
    expect(pages.at(-1)!.flags & 0x04).toBe(0x04);
    expect(pages.slice(0, -1).every((page) => (page.flags & 0x04) === 0)).toBe(true);

    for (const [index, page] of pages.entries()) {
      expect(page.sequence).toBe(index);
      expect(page.serial).toBe(pages[0]!.serial);
      expect(page.crc, `page ${index}`).toBe(checksum(page.raw));
      expect(page.segments.length).toBeLessThanOrEqual(255);
    }
    const granules = pages.map((page) => page.granule).filter((g) => g !== -1n);
    expect(granules).toEqual([...granules].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const blocks = blocksOf(webm);
    const packets = packetsOf(pages).slice(2);
    expect(packets.length).toBe(blocks.length);
    expect(packets.every((packet, i) => packet.equals(blocks[i]!.payload))).toBe(true);

    // Chromium's Duration element holds the last block's start, not its end: the recording
    // lasts until the last block ends, one block step later (milliseconds, the default scale).
    const step = blocks[1]!.time - blocks[0]!.time;
    const webmMs = blocks.at(-1)!.time + step - blocks[0]!.time;
    const preSkip = head!.body.readUInt16LE(10);
    const oggMs = (Number(pages.at(-1)!.granule) - preSkip) / 48;
    expect(webmMs).toBeGreaterThan(1500);
    expect(Math.abs(oggMs - webmMs)).toBeLessThanOrEqual(20);
  });

  it('reads a segment and clusters of unknown size, as a recorder streams them', () => {
    // The fixture's 8-byte sizes of its segment and cluster, made "unknown" (all ones).
    const segment = [0x18, 0x53, 0x80, 0x67];
    const cluster = [0x1f, 0x43, 0xb6, 0x75];
    const streamed = Buffer.from(webm);
    for (const id of [segment, cluster]) {
      // The element itself, not its mention in the seek head.
      const at = streamed.indexOf(Buffer.from([...id, 0x01]));
      expect(at).toBeGreaterThan(0);
      streamed.fill(0xff, at + 5, at + 12);
    }
    const fromStreamed = packetsOf(pagesOf(webmToOgg(streamed, 7)));
    expect(fromStreamed).toEqual(packetsOf(pagesOf(webmToOgg(webm, 7))));
  });

  it('splits laced blocks into their frames', () => {
    // The first two blocks (8-byte frames) made one Xiph-laced block and a Void filler, so
    // every size around them stays right.
    const at = webm.indexOf(Buffer.from([0xa3, 0x8c, 0x81, 0x00, 0x00, 0x80]));
    const [first, second] = [webm.subarray(at + 6, at + 14), webm.subarray(at + 20, at + 28)];
    expect(
      webm.subarray(at + 14, at + 20).equals(Buffer.from([0xa3, 0x8c, 0x81, 0x00, 0x3c, 0x80])),
    ).toBe(true);
    const laced = Buffer.concat([
      Buffer.from([0xa3, 0x96, 0x81, 0x00, 0x00, 0x82, 0x01, 0x08]),
      first,
      second,
      Buffer.from([0xec, 0x82, 0x00, 0x00]),
    ]);
    expect(laced.length).toBe(28);
    const file = Buffer.from(webm);
    laced.copy(file, at);
    expect(packetsOf(pagesOf(webmToOgg(file)))).toEqual(packetsOf(pagesOf(webmToOgg(webm))));
  });

  it('refuses what it cannot convert with a typed error', () => {
    expect(failureOf(Buffer.from('not a media file at all'))).toBe('not-webm');
    expect(failureOf(Buffer.alloc(0))).toBe('not-webm');
    expect(failureOf(Buffer.from('OggS\0\x02'))).toBe('not-webm');
    const vorbis = patched(webm, [...Buffer.from('A_OPUS')], [...Buffer.from('A_VORB')]);
    expect(failureOf(vorbis)).toBe('no-opus');
    expect(failureOf(webm.subarray(0, webm.length - 5))).toBe('truncated');
    expect(failureOf(webm.subarray(0, 300))).toBe('truncated');
    expect(failureOf(webm.subarray(0, 40))).toBe('truncated');
    // A cut recording whose Cluster id is damaged: junk up to the end of a short file, which
    // a reader that resynchronises on the next element can scan forever.
    const junk = Buffer.from(webm.subarray(0, 2000));
    expect(junk.readUInt32BE(263)).toBe(0x1f43b675);
    junk[263] = 0x69;
    expect(failureOf(junk)).toBe('truncated');
  });

  it('never fails in an untyped way on damaged files', () => {
    // Deterministic damage: bytes overwritten at spread positions, each case on its own.
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 300; round++) {
      const damaged = Buffer.from(
        webm.subarray(0, Math.max(8, Math.floor(random() * webm.length))),
      );
      for (let hit = 0; hit < 3; hit++) {
        damaged[Math.floor(random() * Math.min(damaged.length, 600))] = Math.floor(random() * 256);
      }
      expect([
        'converted',
        'not-webm',
        'no-opus',
        'unsupported',
        'malformed',
        'truncated',
      ]).toContain(failureOf(damaged));
    }
  });
});
