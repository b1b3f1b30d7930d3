// PALs in Daily rooms: the runner API, Daily's webhooks, the calls' deadlines and the job closing a
// provider's room after the end (the handoff itself runs in createConversation, through daily-call.ts).
import type { ResourceModule } from '../../resources/module.js';
import { registerDailyWebhooks } from '../conferencing/daily-webhooks.js';
import { registerRunnerRoutes } from './routes.js';
import { dailyDeadlineJobs } from '../conferencing/daily-deadlines.js';
import { closeRoomJobs } from '../conferencing/close-room.js';

export const palRunnerModule: ResourceModule = {
  name: 'pal-runner',
  routes(app, deps) {
    if (deps.config.daily.apiKey && !deps.config.palRunner) {
      deps.log.info('Daily rooms without a PAL: PALKIT_PAL_RUNNER_URL is unset, so no PAL joins Daily rooms');
    }
    registerRunnerRoutes(app, deps);
    registerDailyWebhooks(app, deps);
  },
  jobs: (deps) => ({ ...dailyDeadlineJobs(deps), ...closeRoomJobs(deps) }),
};
