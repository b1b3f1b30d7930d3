// OAuth connectors are never `oauth_status` `none` (that is for connectors without OAuth): the ones
// stored unlinked before this rule now show `pending`, awaiting their first authorization.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update connectors set oauth_status = 'pending' where auth_type = 'oauth2' and oauth_status = 'none'`.execute(db);
}
