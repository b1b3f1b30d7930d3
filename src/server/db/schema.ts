// The database as Kysely sees it: one interface per area, merged. An area adds its table file here.
import type { CoreTables } from './tables/core.js';
import type { ConversationEventTables, DeploymentAttemptTables, DomainTables } from './tables/domain.js';

export interface Database extends CoreTables, DomainTables, ConversationEventTables, DeploymentAttemptTables {}
