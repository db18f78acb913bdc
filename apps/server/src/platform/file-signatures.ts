/**
 * The first bytes ("magic numbers") of the file types a browser shows inline: images, audio,
 * video and PDF. One table for every place that must know what a file is before serving it.
 * Written by hand rather than with the file-type library: we check a type someone claims against
 * its few fixed bytes, where file-type guesses among hundreds from 4 kB and names some types
 * otherwise than WhatsApp does (an audio/mp4 voice note is its audio/x-m4a).
 */

/** How many bytes of a file's head the table reads at most. */
export const SIGNATURE_BYTES = 16;

const ascii = (head: Buffer, from: number, text: string) =>
  head.subarray(from, from + text.length).toString('latin1') === text;

const SIGNATURES: Readonly<Record<string, (head: Buffer) => boolean>> = {
  'image/jpeg': (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  'image/png': (h) => ascii(h, 0, '\x89PNG\r\n\x1a\n'),
  'image/gif': (h) => ascii(h, 0, 'GIF8'),
  'image/webp': (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WEBP'),
  'audio/ogg': (h) => ascii(h, 0, 'OggS'),
  'audio/mpeg': (h) => ascii(h, 0, 'ID3') || (h[0] === 0xff && ((h[1] ?? 0) & 0xe0) === 0xe0),
  'audio/mp4': (h) => ascii(h, 4, 'ftyp'),
  'video/mp4': (h) => ascii(h, 4, 'ftyp'),
  'video/3gpp': (h) => ascii(h, 4, 'ftyp'),
  'audio/webm': (h) => h[0] === 0x1a && h[1] === 0x45 && h[2] === 0xdf && h[3] === 0xa3,
  'application/pdf': (h) => ascii(h, 0, '%PDF-'),
};

/**
 * Whether a file's head is what its claimed type begins with; true for a type the table does
 * not know (nothing to check it against).
 */
export function headMatchesType(mimeType: string, head: Buffer): boolean {
  const matches = SIGNATURES[mimeType];
  return matches ? matches(head) : true;
}

/** The first of `types` (in their order) whose signature the head bears, if any. */
export function typeOfHead(head: Buffer, types: readonly string[]): string | undefined {
  return types.find((type) => SIGNATURES[type]?.(head));
}
