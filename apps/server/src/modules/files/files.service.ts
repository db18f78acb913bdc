import {
  DEFAULT_PAGE_SIZE,
  type FileListCreate,
  type FileListOption,
  type FileListRecord,
  type FileListsQuery,
  type FileListUpdate,
  fileListUploadFormSchema,
  MEDIA_MAX_FILES,
  MEDIA_UPLOAD_TYPES,
} from '@atendi/shared';
import { type TenantDb, tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { isoRequired, page, sliceMore } from '../../platform/routes';
import {
  discardUploads,
  forgetStored,
  type MultipartSource,
  parseFields,
  readUploads,
} from '../../platform/uploads';
import type { ServiceDeps } from '../deps';
import {
  deleteFileList,
  type FileListOptionRow,
  type FileListWithOptions,
  fileListById,
  fileListsPage,
  insertFileList,
  replaceFileListOptions,
  setFileListOptionFile,
  updateFileList,
} from './files.repository';

const notFound = () => new AppError('ERR_NOT_FOUND', 404);
const badField = (path: string, message: string) =>
  new AppError('ERR_VALIDATION', 400, { fields: [{ path: `body.${path}`, message }] });

/**
 * File lists: a name, a message and named files, kept by a company's admins for campaigns and
 * bots. A list and its options are saved as JSON first; the files follow in one multipart form
 * (POST /files/uploadList/:fileId), each stored under a generated name.
 */
export class FilesService {
  constructor(private readonly platform: Pick<ServiceDeps, 'events' | 'storage'>) {}

  #presentOption(row: FileListOptionRow): FileListOption {
    return {
      id: row.id,
      name: row.name,
      path: row.mediaPath ? this.platform.storage.signedPath(row.mediaPath) : null,
      mediaType: row.mediaType,
      mediaName: row.mediaName,
    };
  }

  #present(row: FileListWithOptions): FileListRecord {
    return {
      id: row.id,
      name: row.name,
      message: row.message,
      options: row.options.map((option) => this.#presentOption(option)),
      createdAt: isoRequired(row.createdAt),
      updatedAt: isoRequired(row.updatedAt),
    };
  }

  async list(ctx: RequestContext, query: FileListsQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await fileListsPage(
      tenantDb(ctx),
      query.searchParam?.trim() || undefined,
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { files: pageRows.map((row) => this.#present(row)), count, hasMore };
  }

  async get(ctx: RequestContext, id: number): Promise<FileListRecord> {
    return this.#present(await this.#list(tenantDb(ctx), id));
  }

  async create(ctx: RequestContext, data: FileListCreate): Promise<FileListRecord> {
    const db = tenantDb(ctx);
    const id = await db.transaction(async (tx) => {
      const created = await insertFileList(tx, {
        name: data.name,
        message: data.message,
        userId: ctx.userId,
      });
      // New options only: ids of another list's options are not taken over.
      await replaceFileListOptions(
        tx,
        created,
        (data.options ?? []).map((option) => ({ name: option.name })),
      );
      return created;
    });
    return this.#announce(db, 'create', id);
  }

  async update(ctx: RequestContext, id: number, data: FileListUpdate): Promise<FileListRecord> {
    const db = tenantDb(ctx);
    const removed = await db.transaction(async (tx) => {
      if (!(await updateFileList(tx, id, { name: data.name, message: data.message }))) {
        throw notFound();
      }
      return data.options ? replaceFileListOptions(tx, id, data.options) : [];
    });
    await Promise.all(removed.map((key) => forgetStored(this.platform.storage, key)));
    return this.#announce(db, 'update', id);
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const removed = await deleteFileList(tenantDb(ctx), id);
    if (!removed) throw notFound();
    await Promise.all(removed.map((key) => forgetStored(this.platform.storage, key)));
    this.platform.events.emit('fileList.deleted', { companyId: ctx.companyId, id });
  }

  /**
   * Stores the files of a list's options: `files` parts, each with the option's `id` at the same
   * position. All or nothing: an unknown option refuses the form and no file stays behind; the
   * files the options had before are removed once the new ones are saved.
   */
  async upload(
    ctx: RequestContext,
    fileListId: number,
    source: MultipartSource | undefined,
  ): Promise<FileListRecord> {
    const db = tenantDb(ctx);
    const list = await this.#list(db, fileListId);
    if (!source) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 415);
    const form = await readUploads(source, this.platform.storage, ctx.companyId, {
      fileFields: ['files'],
      maxFiles: MEDIA_MAX_FILES,
      types: MEDIA_UPLOAD_TYPES,
    });
    const previous: (string | null)[] = [];
    try {
      parseFields(fileListUploadFormSchema, form.fields);
      if (form.files.length === 0) throw badField('files', 'Required');
      const ids = form.fieldLists.id ?? [];
      const known = new Set(list.options.map((option) => option.id));
      const optionIds = form.files.map((_file, index) => {
        const id = Number(ids[index]);
        if (!Number.isInteger(id) || !known.has(id)) throw badField('id', 'Unknown option');
        // One file per option and form: a second would leave the first stored for nothing.
        known.delete(id);
        return id;
      });
      await db.transaction(async (tx) => {
        for (const [index, file] of form.files.entries()) {
          const set = await setFileListOptionFile(tx, fileListId, optionIds[index]!, {
            mediaPath: file.key,
            mediaType: file.mimeType,
            mediaName: file.fileName,
          });
          if (!set) throw badField('id', 'Unknown option');
          previous.push(set.previous);
        }
      });
    } catch (error) {
      await discardUploads(this.platform.storage, form.files);
      throw error;
    }
    await Promise.all(previous.map((key) => forgetStored(this.platform.storage, key)));
    return this.#announce(db, 'update', fileListId);
  }

  async #list(db: TenantDb, id: number): Promise<FileListWithOptions> {
    const row = await fileListById(db, id);
    if (!row) throw notFound();
    return row;
  }

  async #announce(db: TenantDb, action: 'create' | 'update', id: number) {
    const record = this.#present(await this.#list(db, id));
    this.platform.events.emit('fileList.saved', { companyId: db.companyId, action, record });
    return record;
  }
}
