// Files the service makes (face thumbnails, rendered videos, speech, uploads), each served at
// /media/{media_id} under an unguessable id, to whom its `access` says (access.ts). Where the bytes live depends on the database:
// - PGlite (embedded): in files under the data folder's `media` folder (0700, files 0600), the row keeping
//   the content type and the file's name. PGlite runs on the service's only thread, so writing megabytes
//   into it stalled every live room for hundreds of ms; files are written and read with async fs. A file is
//   written under a temporary name, synced and renamed before its row is inserted, so a crash never leaves
//   a row pointing at half a file; a row's deletion removes its file once the transaction is over. An
//   in-memory service keeps its files in a fresh folder inside the checked private temp folder, removed on
//   close. Rows from before (bytes in the row) are still read.
// - PostgreSQL: in the row (bytea). Its driver is asynchronous over the network, so the bytes cost the
//   event loop nothing, and every instance on the database serves every instance's media.
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import type { Logger } from '../../platform/log.js';
import { servicePrivateFolder } from '../../platform/files/private-folder.js';
import type { MediaStore, StoredMedia } from '../../platform/media/media-store.js';
import type { MediaAccess } from '../../platform/db/tables/core.js';

// The store's shape is the kernel's (ServiceDeps.media): platform/media/media-store.ts.
export type { MediaStore, StoredMedia } from '../../platform/media/media-store.js';

const MEDIA_ID = /^[A-Za-z0-9.]+$/;

/** The media id of one of this service's /media URLs. */
export function mediaIdOfUrl(url: string | null | undefined): string | undefined {
  const id = url?.match(/\/media\/([A-Za-z0-9.]+)$/)?.[1];
  return id && MEDIA_ID.test(id) ? id : undefined;
}

/**
 * The service's media store. On PGlite the files go to `<dataDir>/media` (a fresh folder in the private temp
 * folder for an in-memory service); files left by a crash (a temporary file, or one whose row never
 * committed) are removed at start.
 */
/** Rows of file-backed media kept in memory (a few hundred bytes each). */
const FILE_ROWS_KEPT = 512;
/** How much of a streamed body its check sees (enough for any file signature). */
const HEAD_BYTES = 64;

/** Small file-backed media kept in memory once read: each at most `perFile`, all together at most `total`. */
export const FILE_BYTES_KEPT = { perFile: 8 * 1024 * 1024, total: 64 * 1024 * 1024 } as const;

export async function openMediaStore(options: {
  db: Db;
  kind: 'pglite' | 'postgres';
  dataDir: string;
  config: { readonly publicUrl: string };
  log: Logger;
}): Promise<MediaStore> {
  const { config, log } = options;
  let folder: string | null = null;
  let temporary = false;
  if (options.kind === 'pglite') {
    const base = servicePrivateFolder(options.dataDir, 'media', log);
    if (base && options.dataDir === 'memory') {
      await removeFoldersOfEndedServices(base, log);
      folder = await mkdtemp(join(base, `service-${process.pid}-`));
      temporary = true;
    } else {
      folder = base;
    }
    if (folder && !temporary) await sweepOrphans(options.db, folder, log);
  }

  const pathOf = (file: string): string => join(folder!, file);

  // The rows of file-backed media last read, so that a burst of visitors fetching the same files (a
  // trained face's rig as 200 calls join) costs the embedded database one lookup per file, not one per
  // request: PGlite runs on the service's thread. A row never changes (ids are not reused) and a removal
  // forgets it first; bounded, the oldest read forgotten first.
  type FileRow = { content_type: string; file: string; bytes: null; owner_id: number; access: MediaAccess; face_id: string | null };
  const fileRows = new Map<string, FileRow>();
  const rememberFileRow = (mediaId: string, row: FileRow) => {
    fileRows.delete(mediaId);
    fileRows.set(mediaId, row);
    if (fileRows.size > FILE_ROWS_KEPT) fileRows.delete(fileRows.keys().next().value!);
  };

  // The bytes of small files last read, for the same reason: a rig's three files read from disk for each of
  // 200 joining visitors (open, stat, read in 64 KB chunks through a stream, close) took a second of the
  // one core the rooms had (bench: rooms with trained faces). Held, they are served in one write. Bounded
  // by bytes, the oldest read forgotten first; a removal forgets them first, as with the rows.
  const fileBytes = new Map<string, Uint8Array<ArrayBuffer>>();
  let fileBytesHeld = 0;
  const forgetBytes = (mediaId: string) => {
    const held = fileBytes.get(mediaId);
    if (!held) return;
    fileBytes.delete(mediaId);
    fileBytesHeld -= held.length;
  };
  const holdBytes = (mediaId: string, bytes: Uint8Array<ArrayBuffer>) => {
    forgetBytes(mediaId);
    if (bytes.length > FILE_BYTES_KEPT.perFile) return;
    fileBytes.set(mediaId, bytes);
    fileBytesHeld += bytes.length;
    while (fileBytesHeld > FILE_BYTES_KEPT.total) forgetBytes(fileBytes.keys().next().value!);
  };

  async function writeFile(file: string, bytes: Uint8Array): Promise<void> {
    const partial = pathOf(`${file}.${newId('tmp', 8)}.tmp`);
    const handle = await open(partial, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, pathOf(file));
  }

  return {
    folder,
    async store(db, input) {
      const mediaId = newId('md', 24) + '.' + input.extension.replace(/[^a-z0-9]/gi, '');
      const who = { access: input.access ?? (input.expiresAt ? 'owner' : 'public'), face_id: input.faceId ?? null } as const;
      // With a folder the row names the file; without one it holds the bytes.
      if (folder) await writeFile(mediaId, input.bytes);
      await db
        .insertInto('media')
        .values({
          media_id: mediaId,
          owner_id: input.ownerId,
          content_type: input.contentType,
          ...(folder ? { bytes: null, file: mediaId } : { bytes: input.bytes }),
          size: input.bytes.length,
          expires_at: input.expiresAt ?? null,
          ...who,
        })
        .execute();
      return { mediaId, url: `${config.publicUrl}/media/${mediaId}` };
    },
    async storeStream(db, input) {
      let mediaId = '';
      // Partial files end in .tmp: a crash leaves one for the start-up sweep (sweepOrphans).
      const partial = folder ? pathOf(`${newId('tmp', 16)}.tmp`) : join(tmpdir(), `palkit-upload-${newId('tmp', 12)}.tmp`);
      const handle = await open(partial, 'wx', 0o600);
      let size = 0;
      const head: Uint8Array[] = [];
      let kept = false;
      try {
        for await (const chunk of input.body) {
          size += chunk.length;
          if (size > input.maxBytes) throw input.tooLarge();
          if (size - chunk.length < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - (size - chunk.length)));
          await handle.write(chunk);
        }
        mediaId = newId('md', 24) + '.' + input.check(Buffer.concat(head), size).replace(/[^a-z0-9]/gi, '');
        await handle.sync();
        await handle.close();
        const row = {
          media_id: mediaId,
          owner_id: input.ownerId,
          content_type: input.contentType,
          size,
          expires_at: input.expiresAt ?? null,
          access: input.access ?? (input.expiresAt ? 'owner' : 'public'),
          face_id: null,
        } as const;
        if (folder) {
          await rename(partial, pathOf(mediaId));
          kept = true;
          await db
            .insertInto('media')
            .values({ ...row, bytes: null, file: mediaId })
            .execute();
        } else {
          await db
            .insertInto('media')
            .values({ ...row, bytes: new Uint8Array(await readFile(partial)) })
            .execute();
        }
        return { mediaId, url: `${config.publicUrl}/media/${mediaId}`, size };
      } catch (error) {
        if (kept) await unlink(pathOf(mediaId)).catch(() => undefined);
        throw error;
      } finally {
        await handle.close().catch(() => undefined);
        await unlink(partial).catch(() => undefined);
      }
    },
    async get(db, mediaId, ownerId) {
      if (!MEDIA_ID.test(mediaId)) return undefined;
      const row =
        fileRows.get(mediaId) ??
        (await db
          .selectFrom('media')
          .select(['content_type', 'file', 'bytes', 'owner_id', 'access', 'face_id'])
          .where('media_id', '=', mediaId)
          .executeTakeFirst());
      if (!row || (ownerId !== undefined && row.owner_id !== ownerId)) return undefined;
      const who = { ownerId: row.owner_id, access: row.access, faceId: row.face_id };
      if (row.file && folder) {
        rememberFileRow(mediaId, {
          content_type: row.content_type,
          file: row.file,
          bytes: null,
          owner_id: row.owner_id,
          access: row.access,
          face_id: row.face_id,
        });
        const held = fileBytes.get(mediaId);
        if (held) {
          holdBytes(mediaId, held); // read again: the newest
          return inMemory(row.content_type, held, who);
        }
        const path = pathOf(row.file);
        const size = await stat(path).then(
          (s) => s.size,
          () => null,
        );
        if (size === null) {
          log.error('a media file is missing', { media_id: mediaId });
          return undefined;
        }
        if (size <= FILE_BYTES_KEPT.perFile) {
          const bytes = await readFile(path).then(
            (b) => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.length),
            () => null,
          );
          if (!bytes) {
            log.error('a media file is missing', { media_id: mediaId });
            return undefined;
          }
          if (fileRows.has(mediaId)) holdBytes(mediaId, bytes); // unless removed while it was read
          return inMemory(row.content_type, bytes, who);
        }
        return {
          contentType: row.content_type,
          ...who,
          size,
          bytes: async () => new Uint8Array(await readFile(path)),
          stream: (start, end) => Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>,
        };
      }
      // Bytes in the row: PostgreSQL, or a PGlite row from before media files.
      if (!row.bytes) return undefined;
      return inMemory(row.content_type, new Uint8Array(row.bytes), who);
    },
    async remove(db, mediaIds) {
      if (mediaIds.length === 0) return [];
      for (const id of mediaIds) {
        fileRows.delete(id);
        forgetBytes(id);
      }
      const rows = await db.deleteFrom('media').where('media_id', 'in', mediaIds).returning('file').execute();
      return rows.flatMap((r) => (r.file ? [r.file] : []));
    },
    async discard(files) {
      if (!folder) return;
      for (const file of files) await unlink(pathOf(file)).catch(() => undefined);
    },
    async close() {
      if (folder && temporary) await rm(folder, { recursive: true, force: true });
    },
  };
}

function inMemory(
  contentType: string,
  bytes: Uint8Array<ArrayBuffer>,
  who: Pick<StoredMedia, 'ownerId' | 'access' | 'faceId'>,
): StoredMedia {
  return {
    contentType,
    ...who,
    size: bytes.length,
    held: bytes,
    bytes: async () => bytes,
    stream: (start, end) => new Blob([bytes.subarray(start, end + 1)]).stream(),
  };
}

/**
 * An in-memory service removes its media folder on close; one that crashed or was killed could not. Each is
 * named after its process (service-<pid>-<random>): a folder whose process is gone is removed as the next
 * in-memory service starts. A folder of a live process is kept (its pid may have been reused: then it is
 * removed once that process is gone too); folders of the old naming (service-<random>) are left alone.
 */
async function removeFoldersOfEndedServices(base: string, log: Logger): Promise<void> {
  const names = await readdir(base).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const pid = Number(/^service-(\d+)-[^/]+$/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue;
    await rm(join(base, name), { recursive: true, force: true }).then(
      () => removed++,
      () => undefined,
    );
  }
  if (removed > 0) log.info('media folders of ended in-memory services removed', { count: removed });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // another user's process: running
  }
}

/** Removes what a crash can leave in the folder: temporary files, and files whose row never committed. */
async function sweepOrphans(db: Db, folder: string, log: Logger): Promise<void> {
  const names = await readdir(folder);
  const partial = names.filter((n) => n.endsWith('.tmp'));
  const complete = names.filter((n) => !n.endsWith('.tmp'));
  const orphans = [...partial];
  for (let i = 0; i < complete.length; i += 500) {
    const batch = complete.slice(i, i + 500);
    const kept = new Set((await db.selectFrom('media').select('file').where('file', 'in', batch).execute()).map((r) => r.file));
    orphans.push(...batch.filter((n) => !kept.has(n)));
  }
  for (const name of orphans) await unlink(join(folder, name)).catch(() => undefined);
  if (orphans.length > 0) log.info('media files without a row removed', { count: orphans.length });
}
