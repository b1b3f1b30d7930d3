// A deployment that records its conversations (`customization.recording`): the destination must be one
// of the owner's, the conferencing provider must be able to record, and the destination's id stays out
// of the public init response.
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { recordingRefusal, type ConferencingProvider } from '../../providers/conferencing/index.js';

export async function checkRecordingCustomization(
  db: Db,
  ownerId: number,
  customization: unknown,
  provider: ConferencingProvider,
): Promise<void> {
  // Refused when it is configured, not later to every visitor whose start would fail.
  const cannotRecord = recordingOf(customization)?.enabled === true ? recordingRefusal(provider, 'customization.recording.enabled') : null;
  if (cannotRecord) throw badRequest(cannotRecord);
  const destinationId = recordingOf(customization)?.destination_id;
  if (typeof destinationId !== 'string') return;
  const row = await db
    .selectFrom('recording_destinations')
    .select('owner_id')
    .where('destination_id', '=', destinationId)
    .executeTakeFirst();
  if (!row || row.owner_id !== ownerId)
    throw badRequest(`invalid_request: customization.recording.destination_id: recording destination ${destinationId} not found`);
}

/** The customization as browsers see it: whether calls are recorded, not where they go. */
export function publicCustomization<T extends object>(customization: T): T {
  const recording = recordingOf(customization);
  if (!recording || !('destination_id' in recording)) return customization;
  const { destination_id: _hidden, ...rest } = recording;
  return { ...customization, recording: rest };
}

function recordingOf(customization: unknown): Record<string, unknown> | undefined {
  if (typeof customization !== 'object' || customization === null) return undefined;
  const recording = (customization as Record<string, unknown>).recording;
  return typeof recording === 'object' && recording !== null && !Array.isArray(recording)
    ? (recording as Record<string, unknown>)
    : undefined;
}
