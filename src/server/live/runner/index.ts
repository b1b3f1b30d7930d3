// PALs in Daily rooms: the runner API and Daily's webhooks (the handoff itself runs in createConversation).
import type { ResourceModule } from '../../resources/module.js';
import { registerDailyWebhooks } from '../conferencing/daily-webhooks.js';
import { registerRunnerRoutes } from './routes.js';

export const palRunnerModule: ResourceModule = {
  name: 'pal-runner',
  routes(app, deps) {
    if (deps.config.daily.apiKey && !deps.config.palRunner) {
      deps.log.info('Daily rooms without a PAL: PALKIT_PAL_RUNNER_URL is unset, so no PAL joins Daily rooms');
    }
    registerRunnerRoutes(app, deps);
    registerDailyWebhooks(app, deps);
  },
};
