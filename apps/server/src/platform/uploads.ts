import { open, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { MEDIA_MAX_BYTES, MEDIA_MAX_FILES, MESSAGE_BODY_MAX } from '@atendi/shared';
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from './errors';
import { headMatchesType, SIGNATURE_BYTES } from './file-signatures';
import { WebmToOggError, webmToOgg } from './media/webm-to-ogg';
import type { Storage } from './storage';

/** Text fields a form may have: 20, and three more per file (a file list names each file's option). */
const FORM_FIELDS = 20 + MEDIA_MAX_FILES * 3;

/**
 * Routes that take multipart forms. The parser is registered in their scope only, so every
 * other route keeps answering a form with 415. Bounded per file and per form; files stream to
 * storage, never to memory.
 */
export const withUploads =
  (register: FastifyPluginAsyncZod): FastifyPluginAsyncZod =>
  async (app, options) => {
    await app.register(multipart, {
      limits: {
        fileSize: MEDIA_MAX_BYTES,
        files: MEDIA_MAX_FILES,
        fields: FORM_FIELDS,
        fieldSize: MESSAGE_BODY_MAX * 4,
        parts: MEDIA_MAX_FILES + FORM_FIELDS,
        headerPairs: 100,
      },
    });
    await register(app, options);
  };

/** A multipart request body, read only when the service decides to (after its access checks). */
export interface MultipartSource {
  readonly kind: 'multipart';
  parts(): AsyncIterableIterator<Multipart>;
  /** The request's log, for what is worth knowing but does not fail the form. */
  log?: FastifyBaseLogger;
}

export const multipartOf = (request: FastifyRequest): MultipartSource | undefined =>
  request.isMultipart()
    ? { kind: 'multipart', parts: () => request.parts(), log: request.log }
    : undefined;

export const isMultipart = (value: unknown): value is MultipartSource =>
  typeof value === 'object' && value !== null && (value as MultipartSource).kind === 'multipart';

/** A file saved under a generated name; the sender's name is metadata only. */
export interface Upload {
  field: string;
  key: string;
  size: number;
  mimeType: string;
  fileName: string;
}

export interface UploadForm {
  /** Each text field's last value. */
  fields: Record<string, string>;
  /** Every value of each text field, in the order they came (forms that repeat a field). */
  fieldLists: Record<string, string[]>;
  files: Upload[];
}

export interface UploadRules {
  fileFields: readonly string[];
  maxFiles: number;
  types: readonly string[];
}

const normalizeType = (mimeType: string) => mimeType.split(';')[0]!.trim().toLowerCase();

/**
 * A file name as the metadata it is: without control characters (PostgreSQL holds no NUL, so
 * one would fail the row after the file was stored), 255 characters at most. As a phone sent
 * it: WhatsApp keeps a document's name, spaces and all.
 */
export function sentFileNameOf(name: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the target
  const clean = (name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(0, 255);
}

/** An uploaded file's name: each space an underscore (spec administration 5, in every area). */
export const fileNameOf = (name: string | undefined): string =>
  sentFileNameOf(name).replace(/\s/g, '_');

/** Recordings of browsers, which cannot record Ogg; some label an audio-only WebM as video. */
const WEBM_TYPES = new Set(['audio/webm', 'video/webm']);

/** A name's extension changed to `.ogg`, within the 255 characters a name may have. */
const oggNameOf = (name: string) => `${name.replace(/\.[a-z0-9]{1,10}$/i, '').slice(0, 251)}.ogg`;

/**
 * A WebM Opus recording stored again as Ogg Opus, WhatsApp's voice-note format (its Cloud API
 * refuses WebM): the same packets, not re-encoded. Anything else (a video, another codec, a
 * damaged file) is kept as it came, so nothing the agent sent is lost.
 */
async function asOggOpus(
  storage: Storage,
  companyId: number,
  upload: Upload,
  log: FastifyBaseLogger | undefined,
): Promise<Upload> {
  let ogg: Buffer;
  try {
    ogg = webmToOgg(await readFile(storage.pathOf(upload.key)));
  } catch (error) {
    const reason = error instanceof WebmToOggError ? error.reason : 'error';
    log?.warn(
      { reason, detail: error instanceof Error ? error.message : undefined, size: upload.size },
      'WebM upload kept as it came: not remuxed to Ogg Opus',
    );
    return upload;
  }
  const stored = await storage.save(companyId, 'audio/ogg', Readable.from([ogg]));
  await storage.remove(upload.key).catch(() => {});
  return {
    ...upload,
    key: stored.key,
    size: stored.size,
    mimeType: 'audio/ogg',
    fileName: oggNameOf(upload.fileName),
  };
}

async function headOf(storage: Storage, key: string): Promise<Buffer> {
  const file = await open(storage.pathOf(key), 'r');
  try {
    const head = Buffer.alloc(SIGNATURE_BYTES);
    const { bytesRead } = await file.read(head, 0, SIGNATURE_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

export async function discardUploads(storage: Storage, files: Upload[]): Promise<void> {
  await Promise.all(files.map((file) => storage.remove(file.key).catch(() => {})));
}

/**
 * Reads a multipart form: text fields, and files of the allowed fields and types streamed into
 * storage. On any failure the files saved so far are removed.
 */
export async function readUploads(
  source: MultipartSource,
  storage: Storage,
  companyId: number,
  rules: UploadRules,
): Promise<UploadForm> {
  const fields = new Map<string, string>();
  const fieldLists = new Map<string, string[]>();
  const files: Upload[] = [];
  try {
    for await (const part of source.parts()) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string') throw badField(part.fieldname);
        // Refused now, not when its row fails after the files were stored for it.
        if (part.value.includes('\u0000')) throw badField(part.fieldname, 'Invalid character');
        fields.set(part.fieldname, part.value);
        fieldLists.set(part.fieldname, [...(fieldLists.get(part.fieldname) ?? []), part.value]);
        continue;
      }
      const mimeType = normalizeType(part.mimetype);
      if (!rules.fileFields.includes(part.fieldname) || files.length >= rules.maxFiles) {
        part.file.resume();
        throw badField(part.fieldname);
      }
      if (!rules.types.includes(mimeType)) {
        part.file.resume();
        throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 415);
      }
      const stored = await storage.save(companyId, mimeType, part.file);
      files.push({
        field: part.fieldname,
        key: stored.key,
        size: stored.size,
        mimeType,
        fileName: fileNameOf(part.filename),
      });
      if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE', 413);
      // A file claiming a type a browser shows inline must be one, so nothing else is ever
      // rendered under an image or audio type.
      if (!headMatchesType(mimeType, await headOf(storage, stored.key))) {
        throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 415);
      }
      if (WEBM_TYPES.has(mimeType)) {
        files[files.length - 1] = await asOggOpus(storage, companyId, files.at(-1)!, source.log);
      }
    }
  } catch (error) {
    await discardUploads(storage, files);
    throw error;
  }
  return { fields: Object.fromEntries(fields), fieldLists: Object.fromEntries(fieldLists), files };
}

/** One file of a form, in memory (imports): refused above `maxBytes`. */
export async function readFileBuffer(
  source: MultipartSource,
  field: string,
  maxBytes: number,
): Promise<{ buffer: Buffer; fields: Record<string, string> } | undefined> {
  const fields = new Map<string, string>();
  let buffer: Buffer | undefined;
  for await (const part of source.parts()) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields.set(part.fieldname, part.value);
      continue;
    }
    if (part.fieldname !== field || buffer) {
      part.file.resume();
      throw badField(part.fieldname);
    }
    buffer = await part.toBuffer();
    if (buffer.length > maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', 413);
  }
  return buffer ? { buffer, fields: Object.fromEntries(fields) } : undefined;
}

/** Text fields of a form checked by a shared schema, failing as a JSON body would. */
export function parseFields<S extends z.ZodType>(schema: S, fields: unknown): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw new AppError('ERR_VALIDATION', 400, {
    fields: parsed.error.issues.map((issue) => ({
      path: ['body', ...issue.path.map(String)].join('.'),
      message: issue.message,
    })),
  });
}

const badField = (name: string, message = 'Unexpected field') =>
  new AppError('ERR_VALIDATION', 400, {
    fields: [{ path: `body.${name.slice(0, 50)}`, message }],
  });

/** Removes a stored file a record let go of; a file already gone is not an error. */
export async function forgetStored(storage: Storage, key: string | null | undefined) {
  if (key) await storage.remove(key).catch(() => {});
}

export interface AttachmentRules<R> {
  /** Types the file may have. */
  types: readonly string[];
  /** The form's text fields (the spec's clients send a `typeArch`). */
  fields: z.ZodType;
  /** The record's file before this one, removed once the new one is saved on it. */
  previous: string | null;
  /** Writes the stored file on the record. */
  save: (file: Upload) => Promise<R>;
}

/**
 * The file of a `/media-upload` form (field `file`) attached to a record in place of the one it
 * had: streamed to storage, the text fields checked, saved on the record; the previous file is
 * removed after, the new one on any failure.
 */
export async function replaceAttachment<R>(
  source: MultipartSource | undefined,
  storage: Storage,
  companyId: number,
  rules: AttachmentRules<R>,
): Promise<R> {
  if (!source) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 415);
  const form = await readUploads(source, storage, companyId, {
    fileFields: ['file'],
    maxFiles: 1,
    types: rules.types,
  });
  const [file] = form.files;
  try {
    parseFields(rules.fields, form.fields);
    if (!file) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.file', message: 'Required' }],
      });
    }
    const saved = await rules.save(file);
    await forgetStored(storage, rules.previous);
    return saved;
  } catch (error) {
    await discardUploads(storage, form.files);
    throw error;
  }
}
