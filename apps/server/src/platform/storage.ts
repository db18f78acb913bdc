import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { constants, copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** File extensions by media type; anything else is stored as opaque binary. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/webm': 'webm',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/vcard': 'vcf',
};

/** Types a browser may render inline; everything else downloads (never HTML or SVG inline). */
const INLINE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'audio/ogg',
  'audio/mpeg',
  'audio/mp4',
  'audio/webm',
  'video/mp4',
  'video/3gpp',
  'application/pdf',
]);

const KEY_PATTERN = /^\d+\/[0-9a-f-]{36}\.[a-z0-9]{1,5}$/;

export class FileTooLargeError extends Error {}

export interface StoredFile {
  key: string;
  size: number;
}

/**
 * Media files on disk under generated names: `<companyId>/<uuid>.<ext>`. A sender's file name is
 * metadata kept beside the message, never part of a path.
 */
export class Storage {
  readonly root: string;

  constructor(
    root: string,
    private readonly secret: string,
    readonly maxBytes = 64 * 1024 * 1024,
  ) {
    this.root = resolve(root);
  }

  async save(companyId: number, mimeType: string, source: Readable): Promise<StoredFile> {
    const extension = EXTENSIONS[mimeType.split(';')[0]!.trim().toLowerCase()] ?? 'bin';
    const key = `${companyId}/${randomUUID()}.${extension}`;
    const path = this.pathOf(key);
    await mkdir(join(this.root, String(companyId)), { recursive: true });
    let size = 0;
    const limit = this.maxBytes;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > limit ? new FileTooLargeError() : null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(path, { flags: 'wx' }));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { key, size };
  }

  /**
   * A stored file copied under a new key of the company, on the server: a message forwarded
   * keeps a file of its own, so deleting the original's ticket leaves the copy whole.
   */
  async copy(key: string, companyId: number): Promise<StoredFile> {
    const source = this.pathOf(key);
    const copy = `${companyId}/${randomUUID()}.${key.split('.').pop()}`;
    await mkdir(join(this.root, String(companyId)), { recursive: true });
    await copyFile(source, this.pathOf(copy), constants.COPYFILE_EXCL);
    return { key: copy, size: (await stat(this.pathOf(copy))).size };
  }

  /** The file's path; refuses keys that are not ours (no traversal, no absolute paths). */
  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error('invalid storage key');
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error('invalid storage key');
    return path;
  }

  companyOf(key: string): number | undefined {
    return KEY_PATTERN.test(key) ? Number(key.split('/')[0]) : undefined;
  }

  async open(key: string): Promise<{ stream: Readable; size: number }> {
    const path = this.pathOf(key);
    const { size } = await stat(path);
    return { stream: createReadStream(path), size };
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  static inline(mimeType: string): boolean {
    return INLINE_TYPES.has(mimeType);
  }

  /** The media type a stored file is served with, from the extension we gave it. */
  static typeOf(key: string): string {
    const extension = key.split('.').pop();
    const found = Object.entries(EXTENSIONS).find(([, ext]) => ext === extension);
    return found?.[0] ?? 'application/octet-stream';
  }

  /** A URL path valid for `ttlSeconds` that serves the file without a bearer token. */
  signedPath(key: string, ttlSeconds = 3600): string {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    return `/media/${key}?expires=${expires}&signature=${this.#sign(key, expires)}`;
  }

  verify(key: string, expires: number, signature: string): boolean {
    if (!KEY_PATTERN.test(key) || expires < Date.now() / 1000) return false;
    const expected = Buffer.from(this.#sign(key, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  #sign(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}:${expires}`).digest('base64url');
  }
}
