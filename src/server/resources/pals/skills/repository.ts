// Skill attachments in SQL, their wire view, and `palSkills` for the other areas (the live PAL).
import type { Db } from '../../../platform/db/database.js';
import { isoMicros } from '../../../platform/time.js';

export async function attachedSkills(db: Db, palId: string) {
  return db.selectFrom('pal_skills').selectAll().where('pal_id', '=', palId).orderBy('attached_at').orderBy('skill_id').execute();
}

type Attachment = Awaited<ReturnType<typeof attachedSkills>>[number];

export function attachmentView(row: Attachment) {
  return { skill_id: row.skill_id, config: row.config, attached_at: isoMicros(row.attached_at), updated_at: isoMicros(row.updated_at) };
}

/** The skills attached to a PAL: skill_id → its config (empty object for skills without one). */
export async function palSkills(db: Db, palId: string): Promise<Record<string, Record<string, unknown>>> {
  return Object.fromEntries((await attachedSkills(db, palId)).map((row) => [row.skill_id, row.config]));
}

/** Attaches or replaces one skill; a replaced attachment keeps its attached_at. */
export async function upsertAttachment(
  db: Db,
  palId: string,
  skillId: string,
  config: Record<string, unknown>,
  now: Date,
): Promise<Attachment> {
  return db
    .insertInto('pal_skills')
    .values({ pal_id: palId, skill_id: skillId, config: JSON.stringify(config), attached_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['pal_id', 'skill_id']).doUpdateSet({ config: JSON.stringify(config), updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
