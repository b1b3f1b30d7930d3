// Every migration, by name, in the order it runs. Listed rather than read from the folder so that the
// compiled service (one bundle under dist/server) carries them; db/migrate.ts refuses to start from a
// source checkout where a file in this folder is missing from the list.
import type { PalkitMigration } from './types.js';
import * as core from './0001_core.js';
import * as domain from './0002_domain.js';
import * as conversationEvents from './0003_conversation_events.js';
import * as facesPals from './0100_faces_pals.js';
import * as deploymentsConversations from './0200_deployments_conversations.js';
import * as deploymentCallbacks from './0210_deployment_callbacks.js';
import * as documents from './0300_documents.js';
import * as guardrails from './0400_guardrails.js';
import * as connectors from './0401_connectors.js';
import * as liveRooms from './0500_live_rooms.js';
import * as videosSpeech from './0600_videos_speech.js';
import * as builtInFaces from './0700_built_in_faces.js';
import * as connectorOauthPending from './0801_connector_oauth_pending.js';
import * as memoryStoreParticipants from './0802_memory_store_participants.js';
import * as objectives from './0803_objectives.js';
import * as conversationRatings from './0940_conversation_ratings.js';
import * as conversationReceipts from './0941_conversation_receipts.js';
import * as dailyParticipants from './0990_daily_participants.js';
import * as conversationFrames from './0991_conversation_frames.js';
import * as recordings from './0992_recordings.js';
import * as roomHolders from './0993_room_holders.js';
import * as transcriptInterrupted from './0994_transcript_interrupted.js';
import * as turnLatencies from './0995_turn_latencies.js';
import * as deploymentVisitorTokens from './0996_deployment_visitor_tokens.js';
import * as mediaFiles from './0997_media_files.js';
import * as mediaExpiry from './0998_media_expiry.js';
import * as faceMediaAccess from './1010_face_media_access.js';
import * as faceConsent from './1011_face_consent.js';

export const migrations: Record<string, PalkitMigration> = {
  '0001_core': core,
  '0002_domain': domain,
  '0003_conversation_events': conversationEvents,
  '0100_faces_pals': facesPals,
  '0200_deployments_conversations': deploymentsConversations,
  '0210_deployment_callbacks': deploymentCallbacks,
  '0300_documents': documents,
  '0400_guardrails': guardrails,
  '0401_connectors': connectors,
  '0500_live_rooms': liveRooms,
  '0600_videos_speech': videosSpeech,
  '0700_built_in_faces': builtInFaces,
  '0801_connector_oauth_pending': connectorOauthPending,
  '0802_memory_store_participants': memoryStoreParticipants,
  '0803_objectives': objectives,
  '0940_conversation_ratings': conversationRatings,
  '0941_conversation_receipts': conversationReceipts,
  '0990_daily_participants': dailyParticipants,
  '0991_conversation_frames': conversationFrames,
  '0992_recordings': recordings,
  '0993_room_holders': roomHolders,
  '0994_transcript_interrupted': transcriptInterrupted,
  '0995_turn_latencies': turnLatencies,
  '0996_deployment_visitor_tokens': deploymentVisitorTokens,
  '0997_media_files': mediaFiles,
  '0998_media_expiry': mediaExpiry,
  '1010_face_media_access': faceMediaAccess,
  '1011_face_consent': faceConsent,
};
