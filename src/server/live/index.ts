// The live conversation on the server: local rooms over WebSocket with the local PAL, their timeouts
// and end callbacks, the room page, the operator events endpoint, Magic Canvas interactions and the
// camera frames sampled for perception, and the visitor's rating after the call.
import type { ResourceModule } from '../resources/module.js';
import { perceptionJobs } from './perception/perception.js';
import { registerFrameRoutes } from './perception/frame-routes.js';
import { registerRatingRoutes } from '../resources/conversations/rating-routes.js';
import { registerCanvasRoutes } from './canvas/routes.js';
import { synthesizerFor } from '../providers/voice/synthesis.js';
import { hubFor } from './hub/hub.js';
import { registerRoomRoutes } from './hub/routes.js';
import { attachRoomServer } from './hub/socket-server.js';

export const liveConversationModule: ResourceModule = {
  name: 'live-conversations',
  routes(app, deps) {
    registerCanvasRoutes(app, deps);
    registerRoomRoutes(app, deps);
    registerFrameRoutes(app, deps);
    registerRatingRoutes(app, deps);
  },
  jobs: perceptionJobs,
  async attach(server, deps) {
    const hub = hubFor(deps);
    const stopSockets = attachRoomServer(server, deps, hub);
    await hub.start();
    // The local voice's first thread loads and warms up now (seconds), not when the first visitor is greeted.
    const voice = synthesizerFor(deps);
    return async () => {
      await hub.stop();
      await stopSockets();
      voice.close?.();
    };
  },
};
