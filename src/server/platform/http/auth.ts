// API keys: stored only as SHA-256 hashes; `x-api-key` resolves to an owner id.
import { createHash, randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/database.js';
import type { AppEnv } from './app-env.js';
import { unauthorized } from './errors.js';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Creates the owner row (with its webhook signing secret) if it does not exist yet. */
export async function ensureOwner(db: Db, ownerId: number): Promise<void> {
  await db
    .insertInto('owners')
    .values({ owner_id: ownerId, webhook_secret: 'whsec_' + randomBytes(24).toString('base64') })
    .onConflict((oc) => oc.column('owner_id').doNothing())
    .execute();
}

/** Stores a key for an owner (idempotent for the same key). */
export async function addApiKey(db: Db, key: string, ownerId: number, label: string | null = null): Promise<void> {
  await ensureOwner(db, ownerId);
  await db
    .insertInto('api_keys')
    .values({ key_hash: hashKey(key), owner_id: ownerId, label })
    .onConflict((oc) => oc.column('key_hash').doUpdateSet({ owner_id: ownerId }))
    .execute();
}

export async function createApiKey(db: Db, ownerId: number, label: string | null = null): Promise<string> {
  const key = 'pk_' + randomBytes(24).toString('base64url');
  await addApiKey(db, key, ownerId, label);
  return key;
}

export async function ownerForKey(db: Db, key: string): Promise<number | undefined> {
  const row = await db.selectFrom('api_keys').select('owner_id').where('key_hash', '=', hashKey(key)).executeTakeFirst();
  return row?.owner_id;
}

export const requireOwner: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header('x-api-key');
  if (!key) throw unauthorized('Missing API key: send it in the x-api-key header');
  const owner = await ownerForKey(c.get('deps').db, key);
  if (owner === undefined) throw unauthorized('Invalid access token');
  c.set('ownerId', owner);
  await next();
};
