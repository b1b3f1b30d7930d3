// PALs in Daily rooms: the runner API, Daily's webhooks, the calls' deadlines and the job closing a
// provider's room after the end (the handoff itself runs in createConversation, through daily-call-start.ts).
import type { ResourceModule } from '../../resources/module.js';
import { registerDailyWebhooks } from '../conferencing/daily-webhooks.js';
import { registerRunnerRoutes } from './routes.js';
import { dailyDeadlineJobs } from '../conferencing/daily-deadlines.js';
import { closeRoomJobs } from '../conferencing/close-room.js';
import { RunnerPages, runnerPagesFor } from './pages.js';

export const palRunnerModule: ResourceModule = {
  name: 'pal-runner',
  routes(app, deps) {
    if (deps.config.daily.apiKey && !deps.config.palRunner && !RunnerPages.enabled(deps)) {
      deps.log.info(
        "Daily rooms without a PAL: PALKIT_PAL_RUNNER_URL is unset, and palkit's own runner is off (PALKIT_DAILY_RUNNER_PAGES 0) or not in this build",
      );
    }
    registerRunnerRoutes(app, deps);
    registerDailyWebhooks(app, deps);
  },
  jobs: (deps) => ({ ...dailyDeadlineJobs(deps), ...closeRoomJobs(deps) }),
  // palkit's own Daily runners end with the service (their conversations end at their deadlines or when a
  // visitor leaves; a restart does not bring a page back).
  async attach(_server, deps) {
    return async () => runnerPagesFor(deps).close();
  },
};
