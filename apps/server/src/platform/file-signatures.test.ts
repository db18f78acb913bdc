import { describe, expect, it } from 'vitest';
import { headMatchesType, typeOfHead } from './file-signatures';

const PNG = Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const WEBP = Buffer.from('RIFF\x10\0\0\0WEBPVP8 ', 'latin1');
const MP4 = Buffer.from('\0\0\0\x18ftypisom', 'latin1');
const MP3_FRAME = Buffer.from([0xff, 0xfb, 0x90, 0x64]);

describe('headMatchesType', () => {
  it("accepts a head that is its claimed type's", () => {
    expect(headMatchesType('image/png', PNG)).toBe(true);
    expect(headMatchesType('image/jpeg', JPEG)).toBe(true);
    expect(headMatchesType('image/webp', WEBP)).toBe(true);
    expect(headMatchesType('video/mp4', MP4)).toBe(true);
    expect(headMatchesType('audio/mpeg', MP3_FRAME)).toBe(true);
    expect(headMatchesType('audio/mpeg', Buffer.from('ID3\x04', 'latin1'))).toBe(true);
    expect(headMatchesType('application/pdf', Buffer.from('%PDF-1.7\n', 'latin1'))).toBe(true);
  });

  it('refuses a file that claims a type it is not', () => {
    const html = Buffer.from('<html><script>', 'latin1');
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'audio/ogg', 'application/pdf']) {
      expect(headMatchesType(type, html), type).toBe(false);
    }
    expect(headMatchesType('image/png', JPEG)).toBe(false);
    expect(headMatchesType('image/webp', Buffer.from('RIFF\x10\0\0\0WAVEfmt ', 'latin1'))).toBe(
      false,
    );
    expect(headMatchesType('image/png', Buffer.alloc(0))).toBe(false);
  });

  it('has nothing to check for a type without a signature', () => {
    expect(headMatchesType('text/plain', Buffer.from('anything'))).toBe(true);
  });
});

describe('typeOfHead', () => {
  it('names the first of the given types the head bears', () => {
    const images = ['image/jpeg', 'image/png', 'image/webp'];
    expect(typeOfHead(PNG, images)).toBe('image/png');
    expect(typeOfHead(WEBP, images)).toBe('image/webp');
    expect(typeOfHead(Buffer.from('<svg/>'), images)).toBeUndefined();
    // A known signature outside the types asked is not an answer.
    expect(typeOfHead(Buffer.from('GIF89a', 'latin1'), images)).toBeUndefined();
  });
});
