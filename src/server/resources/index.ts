// Every area of the service, registered in this order.
import type { ResourceModule } from './module.js';
import { connectorsModule } from './connectors/index.js';
import { conversationsModule } from './conversations/index.js';
import { liveConversationModule } from '../live/index.js';
import { palRunnerModule } from './conversations/runner/index.js';
import { deploymentsModule } from './deployments/index.js';
import { documentsModule } from './documents/index.js';
import { facesModule } from './faces/index.js';
import { guardrailsModule } from './guardrails/index.js';
import { mediaModule } from './media/index.js';
import { memoryStoresModule } from './memory-stores/index.js';
import { objectivesModule } from './objectives/index.js';
import { palsModule } from './pals/index.js';
import { recordingsModule } from './recordings/index.js';
import { siteModule } from './site/index.js';
import { speechModule } from './speech/index.js';
import { videosModule } from './videos/index.js';
import { uploadsModule } from './uploads/index.js';
import { webhooksModule } from './webhooks/index.js';

export const resourceModules: ResourceModule[] = [
  webhooksModule,
  mediaModule,
  uploadsModule,
  facesModule,
  palsModule,
  deploymentsModule,
  conversationsModule,
  liveConversationModule,
  palRunnerModule,
  documentsModule,
  memoryStoresModule,
  objectivesModule,
  recordingsModule,
  guardrailsModule,
  connectorsModule,
  videosModule,
  speechModule,
  siteModule,
];
