import { describe, expect, it } from 'vitest';
import { encodeQr, qrPath } from './qrcode';

const picture = (modules: boolean[][]) =>
  modules.map((row) => row.map((dark) => (dark ? '#' : '.')).join(''));

describe('encodeQr', () => {
  it('draws the modules a reference encoder draws for a pairing code', () => {
    // version 2, level Q (raised from M: it still fits), mask 4
    const code = encodeQr('SIMULATOR:1:pTq3Xb0');
    expect([code.version, code.ecc, code.mask, code.size]).toEqual([2, 'Q', 4, 25]);
    expect(picture(code.modules)).toEqual([
      '#######....#.####.#######',
      '#.....#...#...#...#.....#',
      '#.###.#.#..#...##.#.###.#',
      '#.###.#..#.#.#....#.###.#',
      '#.###.#.#..###..#.#.###.#',
      '#.....#.##..###.#.#.....#',
      '#######.#.#.#.#.#.#######',
      '.........##.#...#........',
      '.#..#.#.###.###.##.##.#..',
      '##.###..#..##.##.#.####.#',
      '#.#...###...####.##.#.#..',
      '...#...#....##.####...#..',
      '.##..###..####..#.#.##...',
      '#..#.#.#...##.####..##..#',
      '..###.#####.######.##.#..',
      '..#..#..##.#...#...##.#.#',
      '###...##.##.##..#####...#',
      '........##....###...#####',
      '#######..#.#.####.#.###..',
      '#.....#...##.##.#...#.#.#',
      '#.###.#.#....#..#####...#',
      '#.###.#..#.#.##...###..##',
      '#.###.#..#....###.##..##.',
      '#.....#.#.#.###..##...##.',
      '#######..##.##.#....##.##',
    ]);
  });

  it('grows the version with the text and keeps UTF-8 bytes', () => {
    expect(encodeQr('a').version).toBe(1);
    // a WhatsApp Web pairing text is about 240 characters
    const long = encodeQr('x'.repeat(240));
    expect(long.version).toBe(11);
    expect(long.size).toBe(61);
    expect(encodeQr('ação').version).toBe(1);
    expect(() => encodeQr('x'.repeat(3000))).toThrow(RangeError);
  });

  it('makes an SVG path with a quiet zone around the modules', () => {
    const code = encodeQr('a');
    const path = qrPath(code, 4);
    // the top-left finder starts at the margin
    expect(path.startsWith('M4 4h1v1h-1z')).toBe(true);
    const dark = code.modules.flat().filter(Boolean).length;
    expect(path.split('M').length - 1).toBe(dark);
  });
});
