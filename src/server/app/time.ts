// The timestamp forms the spec asks for, in one place.

/** ISO 8601 with milliseconds and Z: 2026-11-21T05:30:00.123Z (faces, documents, deployments). */
export function isoMillis(d: Date): string {
  return d.toISOString();
}

/** ISO 8601 with microseconds and a zone offset: 2026-11-21T05:30:00.123000+00:00 (skill attachments). */
export function isoMicros(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/** YYYY-MM-DD HH:MM:SS in UTC (pinned memories). */
export function dateSpaceTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 with fractional seconds and no zone suffix (connectors). */
export function isoNoZone(d: Date): string {
  return d.toISOString().replace(/Z$/, '');
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
