// Every area of the service, registered in this order.
import type { ResourceModule } from '../resources/module.js';
import { connectorsModule } from '../resources/connectors/index.js';
import { conversationsModule } from '../resources/conversations/index.js';
import { liveConversationModule } from '../live/index.js';
import { palRunnerModule } from '../live/runner/index.js';
import { deploymentsModule } from '../resources/deployments/index.js';
import { documentsModule } from '../resources/documents/index.js';
import { facesModule } from '../resources/faces/index.js';
import { guardrailsModule } from '../resources/guardrails/index.js';
import { mediaModule } from '../resources/media/index.js';
import { memoryStoresModule } from '../resources/memory-stores/index.js';
import { objectivesModule } from '../resources/objectives/index.js';
import { palsModule } from '../resources/pals/index.js';
import { recordingsModule } from '../resources/recordings/index.js';
import { siteModule } from '../resources/site/index.js';
import { speechModule } from '../resources/speech/index.js';
import { videosModule } from '../resources/videos/index.js';
import { uploadsModule } from '../resources/uploads/index.js';
import { webhooksModule } from '../resources/webhooks/index.js';

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
