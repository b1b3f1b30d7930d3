// The shape of the store of files the service makes (ServiceDeps.media), in the kernel so that the
// deps can name it; resources/media/store.ts implements it (files under PGlite, bytea on PostgreSQL).
import type { Db } from '../db/database.js';
import type { MediaAccess } from '../db/tables/core.js';

export interface StoredMedia {
  contentType: string;
  ownerId: number;
  /** Who may read it over HTTP (resources/media/access.ts), and the face it belongs to. */
  access: MediaAccess;
  faceId: string | null;
  size: number;
  /** The whole file when the store holds it in memory (served in one write), else undefined. */
  held?: Uint8Array<ArrayBuffer>;
  /** The whole file. */
  bytes(): Promise<Uint8Array>;
  /** Bytes `start`..`end` (inclusive), streamed. */
  stream(start: number, end: number): ReadableStream<Uint8Array>;
}

export interface MediaStore {
  /** The folder of media files, or null when bytes are kept in the database (PostgreSQL). */
  readonly folder: string | null;
  /**
   * Keeps the bytes; `expiresAt` (uploads) lets the uploads' sweep remove them from then on. `access`
   * defaults to `owner` for media that expires (an upload), else `public`; `faceId` names a face's file.
   */
  store(
    db: Db,
    input: {
      ownerId: number;
      contentType: string;
      bytes: Uint8Array;
      extension: string;
      expiresAt?: Date;
      access?: MediaAccess;
      faceId?: string;
    },
  ): Promise<{ mediaId: string; url: string }>;
  /**
   * Keeps a body as it arrives, never whole in memory where the store keeps files (PGlite): written to a
   * partial file, counted, and refused with `tooLarge` past `maxBytes`; `check` sees the first bytes and the
   * size once all has arrived and returns the file's extension, or throws to refuse it (nothing is kept then). On PostgreSQL the bytes go into
   * the row, read back from a temporary file once complete.
   */
  storeStream(
    db: Db,
    input: {
      ownerId: number;
      contentType: string;
      expiresAt?: Date;
      access?: MediaAccess;
      body: AsyncIterable<Uint8Array>;
      maxBytes: number;
      tooLarge: () => Error;
      check: (head: Uint8Array, size: number) => string;
    },
  ): Promise<{ mediaId: string; url: string; size: number }>;
  /** A stored file, or undefined; `ownerId` restricts it to that owner's. */
  get(db: Db, mediaId: string, ownerId?: number): Promise<StoredMedia | undefined>;
  /**
   * Deletes the rows (inside the caller's transaction) and returns their files: pass them to `discard`
   * once the transaction has committed (a rolled-back deletion keeps its files).
   */
  remove(db: Db, mediaIds: string[]): Promise<string[]>;
  discard(files: string[]): Promise<void>;
  close(): Promise<void>;
}
