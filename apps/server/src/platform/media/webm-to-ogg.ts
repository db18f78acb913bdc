import { randomBytes } from 'node:crypto';

/**
 * WebM (Opus) to Ogg Opus without re-encoding. Browsers record voice notes as WebM, which
 * WhatsApp does not take; its voice notes are Ogg Opus (RFC 7845). The Opus packets are the
 * same in both containers: only the framing changes, so nothing is decoded and no quality is
 * lost.
 *
 * Written here rather than with mediabunny (1.61.0 was tried: it reads the Chromium recording,
 * unknown-size clusters and laced blocks into the same packets) because it fails
 * webm-to-ogg.test.ts on damaged uploads, being made to play what it can of a partial file:
 * - 'refuses what it cannot convert': the recording less its last 5 bytes (cut inside its Cues)
 *   is converted, not refused as truncated, so messages.test.ts's "keeps a WebM it cannot
 *   rewrite" fails too; cut inside its cluster or at 300 bytes it yields no packets and no error.
 * - 'never fails in an untyped way on damaged files': round 81 never returns. Its Matroska
 *   reader, meeting an id that does not belong at the segment's top level in a segment whose
 *   size runs past the end of the file, scans on for the next one and stops advancing 8 bytes
 *   before the end: a synchronous endless loop (any cut recording whose first Cluster id is
 *   damaged, now a case of that first test), which would freeze the server.
 * Its Ogg writer also refuses a track without CodecPrivate (the OpusHead would be built here all
 * the same), and its reader ignores CodecDelay and DiscardPadding, which stand in for the
 * pre-skip and the end trim.
 */

export type WebmToOggFailure = 'not-webm' | 'no-opus' | 'unsupported' | 'malformed' | 'truncated';

export class WebmToOggError extends Error {
  constructor(
    readonly reason: WebmToOggFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebmToOggError';
  }
}

function fail(reason: WebmToOggFailure, message: string): never {
  throw new WebmToOggError(reason, message);
}

// Matroska element ids, with their length marker (as written in the file).
const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  codecDelay: 0x56aa,
  audio: 0xe1,
  samplingFrequency: 0xb5,
  channels: 0x9f,
  cluster: 0x1f43b675,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  discardPadding: 0x75a2,
} as const;

const TRACK_TYPE_AUDIO = 2;
const UNKNOWN_SIZE = -1;

interface Element {
  id: number;
  /** Where its data starts and ends; an unknown size ends with its parent. */
  start: number;
  end: number;
  unknownSize: boolean;
}

/** A variable-length integer at `pos`: its value (marker kept for ids) and length. */
function readVint(
  data: Buffer,
  pos: number,
  keepMarker: boolean,
): { value: number; length: number } {
  if (pos >= data.length) fail('truncated', 'the file ends inside an element header');
  const first = data[pos]!;
  if (first === 0) fail('malformed', 'invalid variable-length integer');
  const length = Math.clz32(first) - 23;
  if (pos + length > data.length) fail('truncated', 'the file ends inside an element header');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = data[pos + i]!;
    allOnes &&= byte === 0xff;
    // Multiplication, not shifts: sizes may pass 2^31.
    value = value * 256 + byte;
  }
  if (!keepMarker && allOnes) return { value: UNKNOWN_SIZE, length };
  if (!Number.isSafeInteger(value)) fail('malformed', 'integer too large');
  return { value, length };
}

function readElement(data: Buffer, pos: number, parentEnd: number): Element {
  const id = readVint(data, pos, true);
  if (id.length > 4) fail('malformed', 'element id longer than 4 bytes');
  const size = readVint(data, pos + id.length, false);
  const start = pos + id.length + size.length;
  if (size.value === UNKNOWN_SIZE)
    return { id: id.value, start, end: parentEnd, unknownSize: true };
  const end = start + size.value;
  if (end > data.length) fail('truncated', 'the file ends inside an element');
  if (end > parentEnd) fail('malformed', 'an element overflows its parent');
  return { id: id.value, start, end, unknownSize: false };
}

function* children(data: Buffer, start: number, end: number): Generator<Element> {
  let pos = start;
  while (pos < end) {
    const element = readElement(data, pos, end);
    if (element.unknownSize) fail('unsupported', 'unknown size inside a master element');
    yield element;
    pos = element.end;
  }
}

function readUint(data: Buffer, element: Element): number {
  const length = element.end - element.start;
  if (length > 7) fail('malformed', 'unsigned integer too long');
  let value = 0;
  for (let i = element.start; i < element.end; i++) value = value * 256 + data[i]!;
  return value;
}

function readFloat(data: Buffer, element: Element): number {
  const length = element.end - element.start;
  if (length === 4) return data.readFloatBE(element.start);
  if (length === 8) return data.readDoubleBE(element.start);
  if (length === 0) return 0;
  fail('malformed', 'float of invalid length');
}

interface Track {
  number: number;
  type: number;
  codecId: string;
  codecPrivate?: Buffer;
  codecDelayNs: number;
  samplingFrequency: number;
  channels: number;
}

function readTrack(data: Buffer, entry: Element): Track {
  const track: Track = {
    number: 0,
    type: 0,
    codecId: '',
    codecDelayNs: 0,
    samplingFrequency: 8000,
    channels: 1,
  };
  for (const child of children(data, entry.start, entry.end)) {
    if (child.id === ID.trackNumber) track.number = readUint(data, child);
    else if (child.id === ID.trackType) track.type = readUint(data, child);
    else if (child.id === ID.codecId)
      track.codecId = data.toString('latin1', child.start, child.end).replace(/\0+$/, '');
    else if (child.id === ID.codecPrivate)
      track.codecPrivate = data.subarray(child.start, child.end);
    else if (child.id === ID.codecDelay) track.codecDelayNs = readUint(data, child);
    else if (child.id === ID.audio) {
      for (const setting of children(data, child.start, child.end)) {
        if (setting.id === ID.samplingFrequency) track.samplingFrequency = readFloat(data, setting);
        else if (setting.id === ID.channels) track.channels = readUint(data, setting);
      }
    }
  }
  return track;
}

export interface WebmOpus {
  /** The OpusHead identification header (RFC 7845 section 5.1). */
  head: Buffer;
  /** In file order, as the blocks held them. */
  packets: Buffer[];
  /** Samples (48 kHz) to drop from the end of the last packet (Matroska's DiscardPadding). */
  endTrim: number;
}

/** Frames of a block's payload after its header, by its lacing (RFC 9559 section 10.3). */
function lacedFrames(data: Buffer, start: number, end: number, lacing: number): Buffer[] {
  if (lacing === 0) return [data.subarray(start, end)];
  if (start >= end) fail('malformed', 'laced block without a frame count');
  const count = data[start]! + 1;
  let pos = start + 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    // Xiph: each size as a run of 255s and a last byte below 255.
    for (let i = 0; i < count - 1; i++) {
      let size = 0;
      let byte: number;
      do {
        if (pos >= end) fail('malformed', 'lacing runs past the block');
        byte = data[pos++]!;
        size += byte;
      } while (byte === 255);
      sizes.push(size);
    }
  } else if (lacing === 3) {
    // EBML: the first size, then signed differences to the previous one.
    let size = 0;
    for (let i = 0; i < count - 1; i++) {
      if (pos >= end) fail('malformed', 'lacing runs past the block');
      const vint = readVint(data, pos, false);
      if (vint.value === UNKNOWN_SIZE) fail('malformed', 'unknown lace size');
      size = i === 0 ? vint.value : size + vint.value - (2 ** (7 * vint.length - 1) - 1);
      if (size < 0) fail('malformed', 'negative lace size');
      sizes.push(size);
      pos += vint.length;
    }
  } else {
    const total = end - pos;
    if (total % count !== 0) fail('malformed', 'fixed lacing does not divide the block');
    for (let i = 0; i < count - 1; i++) sizes.push(total / count);
  }
  const used = sizes.reduce((sum, size) => sum + size, 0);
  if (pos + used > end) fail('malformed', 'lace sizes overflow the block');
  sizes.push(end - pos - used);
  return sizes.map((size) => {
    const frame = data.subarray(pos, pos + size);
    pos += size;
    return frame;
  });
}

/** The Opus track of a WebM file: its header and packets in file order. */
export function readWebmOpus(data: Buffer): WebmOpus {
  if (data.length < 4 || data.readUInt32BE(0) !== ID.ebml) fail('not-webm', 'not an EBML file');
  const header = readElement(data, 0, data.length);
  if (header.unknownSize) fail('malformed', 'EBML header of unknown size');
  let docType = '';
  for (const child of children(data, header.start, header.end)) {
    if (child.id === ID.docType)
      docType = data.toString('latin1', child.start, child.end).replace(/\0+$/, '');
  }
  if (docType !== 'webm' && docType !== 'matroska') fail('not-webm', `document type '${docType}'`);

  let pos = header.end;
  let segment: Element | undefined;
  while (pos < data.length && !segment) {
    const element = readElement(data, pos, data.length);
    if (element.id === ID.segment) segment = element;
    else if (element.unknownSize) fail('malformed', 'top-level element of unknown size');
    pos = element.end;
  }
  if (!segment) fail('malformed', 'no segment');

  let track: Track | undefined;
  let inCluster = false;
  let endTrim = 0;
  const packets: Buffer[] = [];

  const addBlock = (start: number, end: number, discardPadding = 0) => {
    if (!track) fail('malformed', 'a block before the track list');
    const number = readVint(data, start, false);
    const headerEnd = start + number.length + 3;
    if (headerEnd > end) fail('malformed', 'block header runs past the block');
    if (number.value !== track.number) fail('unsupported', 'a block of another track');
    if (!inCluster) fail('malformed', 'a block outside a cluster');
    const lacing = (data[start + number.length + 2]! >> 1) & 0b11;
    packets.push(...lacedFrames(data, headerEnd, end, lacing));
    // Only the stream's end may be trimmed in Ogg; a later block resets it.
    endTrim = Math.max(0, Math.round((discardPadding * 48_000) / 1e9));
  };

  // Clusters are walked into rather than over: MediaRecorder writes them (and the segment) with
  // an unknown size, ended only by the next cluster or the end of the file. The ids of their
  // children are never level-1 ids, so one flat walk reads both.
  pos = segment.start;
  while (pos < segment.end) {
    const element = readElement(data, pos, segment.end);
    if (element.id === ID.cluster) {
      inCluster = true;
      pos = element.start;
      continue;
    }
    if (element.unknownSize) fail('unsupported', 'an element of unknown size other than a cluster');
    switch (element.id) {
      case ID.tracks: {
        if (track) fail('unsupported', 'more than one track list');
        const entries = [...children(data, element.start, element.end)].filter(
          (child) => child.id === ID.trackEntry,
        );
        if (entries.length !== 1) fail('unsupported', `${entries.length} tracks, not one`);
        const only = readTrack(data, entries[0]!);
        if (only.type !== TRACK_TYPE_AUDIO || only.codecId !== 'A_OPUS')
          fail('no-opus', `track of type ${only.type} and codec '${only.codecId}'`);
        if (only.number <= 0) fail('malformed', 'track without a number');
        track = only;
        break;
      }
      case ID.simpleBlock:
        addBlock(element.start, element.end);
        break;
      case ID.blockGroup: {
        let block: Element | undefined;
        let discardPadding = 0;
        for (const child of children(data, element.start, element.end)) {
          if (child.id === ID.block) block = child;
          else if (child.id === ID.discardPadding) discardPadding = readSint(data, child);
        }
        if (!block) fail('malformed', 'block group without a block');
        addBlock(block.start, block.end, discardPadding);
        break;
      }
    }
    pos = element.end;
  }
  if (!track) fail('no-opus', 'no track list');
  if (packets.length === 0) fail('malformed', 'no audio frames');
  return { head: opusHeadOf(track), packets, endTrim };
}

function readSint(data: Buffer, element: Element): number {
  const length = element.end - element.start;
  if (length === 0) return 0;
  if (length > 6) fail('malformed', 'signed integer too long');
  return data.readIntBE(element.start, length);
}

/** The track's own OpusHead, checked; built from its audio settings when it has none. */
function opusHeadOf(track: Track): Buffer {
  const preSkipOfDelay = Math.round((track.codecDelayNs * 48_000) / 1e9);
  const given = track.codecPrivate;
  if (given && given.length > 0) {
    if (given.length < 19 || given.toString('latin1', 0, 8) !== 'OpusHead')
      fail('malformed', 'codec private data is not an OpusHead');
    const head = Buffer.from(given);
    const channels = head[9]!;
    const family = head[18]!;
    if (head[8]! >> 4 !== 0) fail('unsupported', 'OpusHead of an unknown major version');
    if (channels === 0) fail('malformed', 'OpusHead without channels');
    if (family === 0 ? channels > 2 || head.length !== 19 : head.length !== 21 + channels)
      fail('malformed', 'OpusHead channel mapping does not match its channels');
    // The container's codec delay stands in for a pre-skip the encoder left at zero.
    if (head.readUInt16LE(10) === 0 && preSkipOfDelay > 0)
      head.writeUInt16LE(Math.min(preSkipOfDelay, 0xffff), 10);
    return head;
  }
  if (track.channels < 1 || track.channels > 2)
    fail('unsupported', `${track.channels} channels without an OpusHead`);
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = track.channels;
  head.writeUInt16LE(Math.min(preSkipOfDelay, 0xffff), 10);
  head.writeUInt32LE(Math.round(track.samplingFrequency) >>> 0, 12);
  head.writeInt16LE(0, 16);
  head[18] = 0;
  return head;
}

// Samples (48 kHz) in one frame of each TOC configuration (RFC 6716 section 3.1, table 2):
// SILK 10/20/40/60 ms, hybrid 10/20 ms, CELT 2.5/5/10/20 ms.
const SILK = [480, 960, 1920, 2880];
const HYBRID = [480, 960];
const CELT = [120, 240, 480, 960];
const frameSamples = (config: number) =>
  config < 12 ? SILK[config % 4]! : config < 16 ? HYBRID[config % 2]! : CELT[config % 4]!;

/** Samples (48 kHz) one Opus packet decodes to, from its TOC byte and frame count. */
export function opusPacketSamples(packet: Buffer): number {
  if (packet.length === 0) fail('malformed', 'empty Opus packet');
  const toc = packet[0]!;
  const code = toc & 0b11;
  let frames: number;
  if (code === 0) frames = 1;
  else if (code !== 3) frames = 2;
  else {
    if (packet.length < 2) fail('malformed', 'Opus packet without its frame count');
    frames = packet[1]! & 0x3f;
    if (frames === 0) fail('malformed', 'Opus packet of zero frames');
  }
  const samples = frames * frameSamples(toc >> 3);
  // No packet lasts longer than 120 ms.
  if (samples > 5760) fail('malformed', 'Opus packet longer than 120 ms');
  return samples;
}

// The Ogg checksum: CRC-32 with polynomial 0x04C11DB7, not reflected, starting at zero.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let crc = n << 24;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    }
    table[n] = crc >>> 0;
  }
  return table;
})();

export function oggCrc(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

const FLAG_CONTINUED = 0x01;
const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;
/** Granule position of a page on which no packet ends. */
const NO_GRANULE = -1n;
const MAX_SEGMENTS = 255;
/** Audio pages close at about a second of sound, as encoders do, or when their table is full. */
const PAGE_SAMPLES = 48_000;

/** Writes packets of one logical stream into Ogg pages (RFC 3533). */
class OggPager {
  readonly #pages: Buffer[] = [];
  readonly #serial: number;
  #sequence = 0;
  #segments: number[] = [];
  #body: Buffer[] = [];
  #granule = NO_GRANULE;
  /** The page being filled starts with the rest of a packet begun on the previous one. */
  #continued = false;
  /** A packet is being laced: a page closed now leaves its rest for the next one. */
  #open = false;
  #first = true;

  constructor(serial: number) {
    this.#serial = serial;
  }

  /** Laces a packet into the current page, spilling onto new pages when its table fills. */
  add(packet: Buffer, granule: bigint) {
    let pos = 0;
    this.#open = false;
    for (;;) {
      if (this.#segments.length === MAX_SEGMENTS) this.#flush(0);
      this.#open = true;
      const size = Math.min(255, packet.length - pos);
      this.#segments.push(size);
      this.#body.push(packet.subarray(pos, pos + size));
      pos += size;
      // A lacing value below 255 ends the packet (a multiple of 255 ends with a 0).
      if (size < 255) break;
    }
    this.#open = false;
    this.#granule = granule;
  }

  /** Closes the current page; the last one is marked end of stream. */
  flush(last = false) {
    if (this.#segments.length > 0) this.#flush(last ? FLAG_EOS : 0);
  }

  #flush(flags: number) {
    const header = Buffer.alloc(27 + this.#segments.length);
    header.write('OggS', 0, 'latin1');
    header[4] = 0;
    header[5] = flags | (this.#continued ? FLAG_CONTINUED : 0) | (this.#first ? FLAG_BOS : 0);
    header.writeBigInt64LE(this.#granule, 6);
    header.writeUInt32LE(this.#serial, 14);
    header.writeUInt32LE(this.#sequence++, 18);
    header[26] = this.#segments.length;
    Buffer.from(this.#segments).copy(header, 27);
    const page = Buffer.concat([header, ...this.#body]);
    page.writeUInt32LE(oggCrc(page), 22);
    this.#pages.push(page);
    this.#segments = [];
    this.#body = [];
    this.#granule = NO_GRANULE;
    this.#continued = this.#open;
    this.#first = false;
  }

  result(): Buffer {
    return Buffer.concat(this.#pages);
  }
}

/** Ours, in the comment header (RFC 7845 section 5.2). */
export const OGG_VENDOR = 'atendi webm-to-ogg';

function opusTags(): Buffer {
  const vendor = Buffer.from(OGG_VENDOR, 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);
  return tags;
}

/**
 * An Ogg Opus file holding the Opus packets of a WebM file. Throws WebmToOggError for
 * anything that is not WebM with exactly one Opus audio track, or is cut short or malformed.
 */
export function webmToOgg(webm: Buffer, serial = randomBytes(4).readUInt32LE(0)): Buffer {
  const { head, packets, endTrim } = readWebmOpus(webm);
  const pager = new OggPager(serial);
  // The headers each on a page of their own; audio starts on a fresh page.
  pager.add(head, 0n);
  pager.flush();
  pager.add(opusTags(), 0n);
  pager.flush();
  let decoded = 0;
  let sincePage = 0;
  for (const [index, packet] of packets.entries()) {
    const samples = opusPacketSamples(packet);
    decoded += samples;
    sincePage += samples;
    const last = index === packets.length - 1;
    // The end trim shortens only the final granule; it cannot remove more than the last packet.
    const granule = last ? decoded - Math.min(endTrim, samples) : decoded;
    pager.add(packet, BigInt(granule));
    if (last) pager.flush(true);
    else if (sincePage >= PAGE_SAMPLES) {
      pager.flush();
      sincePage = 0;
    }
  }
  return pager.result();
}
