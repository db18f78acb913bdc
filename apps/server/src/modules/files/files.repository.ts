import { and, asc, eq, ilike, inArray, notInArray } from 'drizzle-orm';
import { fileListOptions, fileLists } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { likePattern } from '../../platform/routes';

export type FileListRow = typeof fileLists.$inferSelect;
export type FileListOptionRow = typeof fileListOptions.$inferSelect;
export type FileListWithOptions = FileListRow & { options: FileListOptionRow[] };

/** The options of these lists, in the order they were added. */
async function optionsOf(db: TenantDb, listIds: number[]) {
  if (listIds.length === 0) return new Map<number, FileListOptionRow[]>();
  const rows = await db
    .selectFrom(fileListOptions, inArray(fileListOptions.fileListId, listIds))
    .orderBy(asc(fileListOptions.id));
  const byList = new Map<number, FileListOptionRow[]>();
  for (const row of rows) {
    byList.set(row.fileListId, [...(byList.get(row.fileListId) ?? []), row]);
  }
  return byList;
}

/** A page of the company's lists by name, with their options (two statements per page). */
export async function fileListsPage(
  db: TenantDb,
  search: string | undefined,
  options: { limit: number; offset: number },
): Promise<{ rows: FileListWithOptions[]; count: number }> {
  const where = search ? ilike(fileLists.name, likePattern(search)) : undefined;
  const [rows, count] = await Promise.all([
    db
      .selectFrom(fileLists, where)
      .orderBy(asc(fileLists.name), asc(fileLists.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(fileLists, where),
  ]);
  const byList = await optionsOf(
    db,
    rows.map((row) => row.id),
  );
  return { rows: rows.map((row) => ({ ...row, options: byList.get(row.id) ?? [] })), count };
}

export async function fileListById(
  db: TenantDb,
  id: number,
): Promise<FileListWithOptions | undefined> {
  const [row] = await db.selectFrom(fileLists, eq(fileLists.id, id));
  if (!row) return undefined;
  return { ...row, options: (await optionsOf(db, [id])).get(id) ?? [] };
}

export async function insertFileList(
  db: TenantDb,
  data: Pick<FileListRow, 'name' | 'message' | 'userId'>,
): Promise<number> {
  const [row] = await db.insert(fileLists, data).returning({ id: fileLists.id });
  return row!.id;
}

export async function updateFileList(
  db: TenantDb,
  id: number,
  data: Partial<Pick<FileListRow, 'name' | 'message'>>,
): Promise<boolean> {
  const rows = await db
    .update(fileLists, { ...data, updatedAt: new Date() }, eq(fileLists.id, id))
    .returning({ id: fileLists.id });
  return rows.length > 0;
}

/** The list (its options cascade); the stored files of its options, to be removed. */
export async function deleteFileList(db: TenantDb, id: number): Promise<string[] | undefined> {
  return db.transaction(async (tx) => {
    const options = await tx.selectFrom(fileListOptions, eq(fileListOptions.fileListId, id));
    const rows = await tx.delete(fileLists, eq(fileLists.id, id)).returning({ id: fileLists.id });
    if (rows.length === 0) return undefined;
    return options.flatMap((option) => (option.mediaPath ? [option.mediaPath] : []));
  });
}

/**
 * The list's options become these: named ones of the list renamed, new ones added, the others
 * removed. Answers the stored files the removed options had.
 */
export async function replaceFileListOptions(
  db: TenantDb,
  fileListId: number,
  options: { id?: number; name: string }[],
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const current = await tx.selectFrom(
      fileListOptions,
      eq(fileListOptions.fileListId, fileListId),
    );
    const known = new Set(current.map((option) => option.id));
    const kept: number[] = [];
    for (const option of options) {
      if (option.id !== undefined && known.has(option.id)) {
        kept.push(option.id);
        await tx.update(
          fileListOptions,
          { name: option.name, updatedAt: new Date() },
          and(eq(fileListOptions.id, option.id), eq(fileListOptions.fileListId, fileListId))!,
        );
      } else {
        const [row] = await tx
          .insert(fileListOptions, { fileListId, name: option.name })
          .returning({ id: fileListOptions.id });
        kept.push(row!.id);
      }
    }
    const removed = await tx
      .delete(
        fileListOptions,
        and(
          eq(fileListOptions.fileListId, fileListId),
          kept.length ? notInArray(fileListOptions.id, kept) : undefined,
        )!,
      )
      .returning({ mediaPath: fileListOptions.mediaPath });
    return removed.flatMap((option) => (option.mediaPath ? [option.mediaPath] : []));
  });
}

/** Sets an option's stored file; answers the file it had, or undefined when no such option. */
export async function setFileListOptionFile(
  db: TenantDb,
  fileListId: number,
  optionId: number,
  file: { mediaPath: string; mediaType: string; mediaName: string; name?: string },
): Promise<{ previous: string | null } | undefined> {
  const where = and(eq(fileListOptions.id, optionId), eq(fileListOptions.fileListId, fileListId))!;
  return db.transaction(async (tx) => {
    const [current] = await tx.selectFrom(fileListOptions, where).for('update');
    if (!current) return undefined;
    await tx.update(fileListOptions, { ...file, updatedAt: new Date() }, where);
    return { previous: current.mediaPath };
  });
}
