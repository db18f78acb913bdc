import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const SIZE = 120;
const GRID = 5;
const CELL = 20;
const MARGIN = (SIZE - GRID * CELL) / 2;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB colour from a hue (0-359) at fixed saturation and lightness. */
function colour(hue: number): [number, number, number] {
  const s = 0.55;
  const l = 0.5;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/**
 * The simulated phone's profile picture: a symmetric 5x5 pattern in a colour of its own, drawn
 * from the number, as a PNG (the simulator has no real photos to give).
 */
export function simulatorAvatar(phone: string): Buffer {
  const hash = createHash('sha256').update(`atendi-simulator:${phone}`).digest();
  const ink = colour(((hash[0]! << 8) | hash[1]!) % 360);
  const paper: [number, number, number] = [240, 242, 245];
  const filled = (row: number, column: number) => {
    const mirrored = column < 3 ? column : GRID - 1 - column;
    return ((hash[2 + row * 3 + mirrored]! >> 3) & 1) === 1;
  };
  const raw = Buffer.alloc(SIZE * (1 + SIZE * 3));
  for (let y = 0; y < SIZE; y++) {
    const line = y * (1 + SIZE * 3);
    raw[line] = 0; // no filter
    for (let x = 0; x < SIZE; x++) {
      const row = Math.floor((y - MARGIN) / CELL);
      const column = Math.floor((x - MARGIN) / CELL);
      const inside = row >= 0 && row < GRID && column >= 0 && column < GRID;
      const [r, g, b] = inside && filled(row, column) ? ink : paper;
      raw.set([r, g, b], line + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
