// When a local conversation must end on its own: max_call_duration (from creation),
// participant_absent_timeout (nobody ever joined) and participant_left_timeout (everyone left).
// Computed from columns in the database so that any instance can enforce them, also after a restart.
import { sql } from 'kysely';
import { ShutdownReasons } from '../../../protocol/callbacks.js';

/** Seconds. Defaults follow the hosted product. */
export interface RoomLimits {
  maxCallDuration: number;
  participantLeftTimeout: number;
  participantAbsentTimeout: number;
}

export const DEFAULT_LIMITS: RoomLimits = { maxCallDuration: 3600, participantLeftTimeout: 60, participantAbsentTimeout: 300 };

function seconds(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export function roomLimits(properties: Record<string, unknown>): RoomLimits {
  return {
    maxCallDuration: seconds(properties.max_call_duration, DEFAULT_LIMITS.maxCallDuration),
    participantLeftTimeout: seconds(properties.participant_left_timeout, DEFAULT_LIMITS.participantLeftTimeout),
    participantAbsentTimeout: seconds(properties.participant_absent_timeout, DEFAULT_LIMITS.participantAbsentTimeout),
  };
}

export interface RoomMarks {
  createdAt: Date;
  /** First participant joined; null while nobody has. */
  startedAt: Date | null;
  /** Everyone left at this time; null while somebody is in the room. */
  emptySince: Date | null;
}

export interface Deadline {
  at: Date;
  reason: string;
}

/** The earliest deadline that applies. */
export function nextDeadline(marks: RoomMarks, limits: RoomLimits): Deadline {
  const after = (from: Date, s: number) => new Date(from.getTime() + s * 1000);
  const candidates: Deadline[] = [{ at: after(marks.createdAt, limits.maxCallDuration), reason: ShutdownReasons.maxCallDuration }];
  if (!marks.startedAt)
    candidates.push({ at: after(marks.createdAt, limits.participantAbsentTimeout), reason: ShutdownReasons.participantAbsentTimeout });
  else if (marks.emptySince)
    candidates.push({ at: after(marks.emptySince, limits.participantLeftTimeout), reason: ShutdownReasons.participantLeftTimeout });
  return candidates.reduce((a, b) => (b.at < a.at ? b : a));
}

/** A limit of the row's `properties` in seconds, in SQL, as roomLimits reads it. */
function limitSql(key: string, fallback: number) {
  const value = sql`(properties->>${sql.lit(key)})::float8`;
  const fallbackSeconds = sql.lit(fallback);
  // Nested, so that only a number is ever cast (the conditions of an `and` may run in any order).
  return sql`(case when jsonb_typeof(properties->${sql.lit(key)}) = 'number' then (case when ${value} >= 0 then ${value} else ${fallbackSeconds} end) else ${fallbackSeconds} end) * interval '1 second'`;
}

/**
 * The conversations rows whose nextDeadline has passed at `now`, as an SQL condition on their columns,
 * so that a poll reads only those instead of every waiting conversation. A room whose holder died
 * counts as emptied at its last heartbeat (as the room hub decides).
 */
export function deadlinePassedSql(now: Date) {
  const at = sql`${now}::timestamptz`;
  return sql<boolean>`(
    created_at + ${limitSql('max_call_duration', DEFAULT_LIMITS.maxCallDuration)} <= ${at}
    or (live_started_at is null and created_at + ${limitSql('participant_absent_timeout', DEFAULT_LIMITS.participantAbsentTimeout)} <= ${at})
    or (live_started_at is not null and coalesce(live_empty_since, live_heartbeat_at, live_started_at) + ${limitSql('participant_left_timeout', DEFAULT_LIMITS.participantLeftTimeout)} <= ${at}))`;
}
