// The service's master key (signing meeting tokens and gate passes, encrypting stored secrets). It comes
// from PALKIT_SECRET, or is generated once and kept in a 0600 file apart from the database, so a copy of
// the database alone does not open the secrets in it. A key that older versions kept in the database
// is moved into the file.
import { createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Config } from '../platform/config.js';
import type { Db } from '../platform/db/database.js';
import type { Logger } from '../platform/log.js';

const LEGACY_SETTING = 'service_secret';
const FINGERPRINT_SETTING = 'service_secret_fingerprint';

/**
 * The master key, refused when it is not the one the database was first started with: an instance with
 * another secret would report ready and then refuse every visitor's token and fail to read stored secrets.
 */
export async function loadMasterKey(db: Db, config: Pick<Config, 'secret' | 'secretFile'>, log: Logger): Promise<string> {
  const key = await readMasterKey(db, config, log);
  await checkFingerprint(db, key);
  return key;
}

/** A one-way mark of the key (nothing of it can be recovered), kept in the database at its first start. */
export function secretFingerprint(key: string): string {
  return createHmac('sha256', key).update('palkit secret fingerprint v1').digest('base64url').slice(0, 16);
}

async function checkFingerprint(db: Db, key: string): Promise<void> {
  const mine = secretFingerprint(key);
  await db
    .insertInto('service_settings')
    .values({ name: FINGERPRINT_SETTING, value: mine })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = (await db.selectFrom('service_settings').select('value').where('name', '=', FINGERPRINT_SETTING).executeTakeFirstOrThrow())
    .value;
  if (stored !== mine) {
    throw new SecretMismatchError(
      `the service secret differs from the one this database was first started with (fingerprint ${mine}, the database's ${stored}): ` +
        'every instance on one database needs the same PALKIT_SECRET (or the same secret file); see docs/production.md, "The service secret"',
    );
  }
}

export class SecretMismatchError extends Error {
  override name = 'SecretMismatchError';
}

async function readMasterKey(db: Db, config: Pick<Config, 'secret' | 'secretFile'>, log: Logger): Promise<string> {
  if (config.secret) {
    log.info('service secret: from PALKIT_SECRET');
    return config.secret;
  }
  const legacy = (await db.selectFrom('service_settings').select('value').where('name', '=', LEGACY_SETTING).executeTakeFirst())?.value;
  if (!config.secretFile) {
    log.info('service secret: generated for this in-memory database; set PALKIT_SECRET to keep meeting tokens valid across restarts');
    return legacy ?? randomBytes(32).toString('base64url');
  }
  const file = resolve(config.secretFile);
  const key = await readOrCreate(file, legacy ?? randomBytes(32).toString('base64url'));
  if (legacy !== undefined) {
    if (legacy !== key)
      throw new Error(
        `the service secret in ${file} differs from the one in the database; remove one of them (the database's encrypted secrets need the database's)`,
      );
    await db.deleteFrom('service_settings').where('name', '=', LEGACY_SETTING).execute();
    log.info('service secret: moved out of the database', { file });
  }
  log.info(
    'service secret: kept in a file readable only by this user, apart from the database; instances on other hosts need the same file or PALKIT_SECRET',
    { file },
  );
  return key;
}

/** The key in `file`, creating it with `fresh` (mode 0600) when it does not exist yet; concurrent starts agree on one. */
async function readOrCreate(file: string, fresh: string): Promise<string> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, `${fresh}\n`, { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another start may have created it a moment ago: wait for its content.
  for (let attempt = 0; ; attempt++) {
    const key = (await readFile(file, 'utf8')).trim();
    if (key) {
      await chmod(file, 0o600);
      return key;
    }
    if (attempt >= 50) throw new Error(`the service secret file ${file} is empty`);
    // eslint-disable-next-line no-restricted-globals -- another process is writing the file: its real time, before the service (and its clock) exists
    await new Promise((r) => setTimeout(r, 20));
  }
}
