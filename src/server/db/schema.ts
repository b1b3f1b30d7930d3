// The database as Kysely sees it: one interface per area, merged. An area adds its table file here.
import type { CoreTables } from './tables/core.js';
import type { ConversationEventTables, DomainTables } from './tables/domain.js';
import type { DocumentTables } from './tables/documents.js';

export interface Database extends CoreTables, DomainTables, ConversationEventTables, DocumentTables {}
