// The database as Kysely sees it: one interface per area, merged. An area adds its table file here.
import type { CoreTables } from './tables/core.js';
import type { ConnectorTables } from './tables/connectors.js';
import type { DocumentTables } from './tables/documents.js';
import type { ConversationEventTables, DeploymentAttemptTables, DomainTables } from './tables/domain.js';
import type { GuardrailTables } from './tables/guardrails.js';
import type { LiveTables } from './tables/live.js';
import type { ObjectiveTables } from './tables/objectives.js';
import type { RecordingTables } from './tables/recordings.js';
import type { SpeechTables } from './tables/speech.js';
import type { VideoTables } from './tables/videos.js';

export interface Database
  extends
    CoreTables,
    DomainTables,
    ConversationEventTables,
    DeploymentAttemptTables,
    DocumentTables,
    GuardrailTables,
    ConnectorTables,
    LiveTables,
    VideoTables,
    SpeechTables,
    ObjectiveTables,
    RecordingTables {}
