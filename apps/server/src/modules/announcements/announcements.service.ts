import {
  ANNOUNCEMENT_MEDIA_TYPES,
  type Announcement,
  type AnnouncementCreate,
  type AnnouncementUpdate,
  announcementMediaFormSchema,
  DEFAULT_ANNOUNCEMENT_PRIORITY,
  DEFAULT_PAGE_SIZE,
  type ListQuery,
} from '@atendi/shared';
import { globalDb } from '../../db/global';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { isoRequired, page, sliceMore } from '../../platform/routes';
import { forgetStored, type MultipartSource, replaceAttachment } from '../../platform/uploads';
import type { ServiceDeps } from '../deps';
import {
  type AnnouncementRow,
  announcementById,
  announcementsPage,
  deleteAnnouncement,
  insertAnnouncement,
  updateAnnouncement,
} from './announcements.repository';

const notFound = () => new AppError('ERR_NOT_FOUND', 404);

/**
 * Announcements of the platform: the super user writes them; every signed-in user of every
 * company reads the active ones (the top bar's popover) and hears each change.
 */
export class AnnouncementsService {
  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'storage' | 'events'>) {}

  get #db() {
    return globalDb({ db: this.deps.db });
  }

  #present(row: AnnouncementRow): Announcement {
    return {
      id: row.id,
      title: row.title,
      text: row.text,
      priority: row.priority,
      status: row.status,
      mediaPath: row.mediaPath ? this.deps.storage.signedPath(row.mediaPath) : null,
      mediaName: row.mediaName,
      createdAt: isoRequired(row.createdAt),
      updatedAt: isoRequired(row.updatedAt),
    };
  }

  /**
   * Every user of every company hears `company-announcement`, and only active announcements are
   * theirs to read (GET hides the rest): a draft is announced to nobody, and one taken out of
   * circulation is announced as gone (its id only), so the screens showing it drop it.
   */
  #announce(action: 'create' | 'update', row: AnnouncementRow, wasActive: boolean): Announcement {
    const record = this.#present(row);
    if (row.status) this.deps.events.emit('announcement.saved', { action, record });
    else if (wasActive) this.deps.events.emit('announcement.deleted', { id: row.id });
    return record;
  }

  async list(ctx: RequestContext, query: ListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await announcementsPage(
      this.#db,
      { search: query.searchParam?.trim() || undefined, activeOnly: !ctx.super },
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { records: pageRows.map((row) => this.#present(row)), count, hasMore };
  }

  /** An inactive announcement is the super user's only. */
  async get(ctx: RequestContext, id: number): Promise<Announcement> {
    const row = await announcementById(this.#db, id);
    if (!row || (!row.status && !ctx.super)) throw notFound();
    return this.#present(row);
  }

  async create(data: AnnouncementCreate): Promise<Announcement> {
    const row = await insertAnnouncement(this.#db, {
      title: data.title,
      text: data.text,
      priority: data.priority ?? DEFAULT_ANNOUNCEMENT_PRIORITY,
      status: data.status ?? true,
    });
    return this.#announce('create', row, false);
  }

  async update(id: number, data: AnnouncementUpdate): Promise<Announcement> {
    const before = await announcementById(this.#db, id);
    if (!before) throw notFound();
    const row = await updateAnnouncement(this.#db, id, {
      title: data.title,
      text: data.text,
      priority: data.priority,
      status: data.status,
    });
    if (!row) throw notFound();
    return this.#announce('update', row, before.status);
  }

  async remove(id: number): Promise<void> {
    const row = await deleteAnnouncement(this.#db, id);
    if (!row) throw notFound();
    await forgetStored(this.deps.storage, row.mediaPath);
    // A draft was never announced: nobody has it to drop.
    if (row.status) this.deps.events.emit('announcement.deleted', { id });
  }

  /** Attaches an image (form field `file`: .png, .jpg, .jpeg), replacing the one it had. */
  async attachMedia(
    ctx: RequestContext,
    id: number,
    source: MultipartSource | undefined,
  ): Promise<Announcement> {
    const current = await announcementById(this.#db, id);
    if (!current) throw notFound();
    return replaceAttachment(source, this.deps.storage, ctx.companyId, {
      types: ANNOUNCEMENT_MEDIA_TYPES,
      fields: announcementMediaFormSchema,
      previous: current.mediaPath,
      save: async (file) => {
        const row = await updateAnnouncement(this.#db, id, {
          mediaPath: file.key,
          mediaName: file.fileName,
        });
        if (!row) throw notFound();
        return this.#announce('update', row, current.status);
      },
    });
  }

  async detachMedia(id: number): Promise<Announcement> {
    const current = await announcementById(this.#db, id);
    if (!current) throw notFound();
    const row = await updateAnnouncement(this.#db, id, { mediaPath: null, mediaName: null });
    if (!row) throw notFound();
    await forgetStored(this.deps.storage, current.mediaPath);
    return this.#announce('update', row, current.status);
  }
}
