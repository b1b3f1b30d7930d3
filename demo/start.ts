// `npm start`: the companion service on its embedded database, the seeded demo, the customer demo site
// and the landing pages, in one process. Prints where everything is.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/app/config.js';
import { addApiKey } from '../src/server/app/http/auth.js';
import { resourceModules } from '../src/server/resources/index.js';
import { createService } from '../src/server/app/service.js';
import { guardRejections } from '../src/server/app/rejection-guard.js';
import { demoSiteModule, type DemoSiteState } from './site-module.js';
import { DEMO_OWNER, LANDING_PASSWORD, demoKey, seedDemo } from './seed.js';

// Cloudflare's published always-pass Turnstile test keys: the real widget works where the internet is reachable.
const TURNSTILE_TEST_SITE_KEY = '1x00000000000000000000AA';
const TURNSTILE_TEST_SECRET = '1x0000000000000000000000000000000AA';

const { values } = parseArgs({ options: { port: { type: 'string', default: process.env.PORT ?? '8787' } } });
const port = Number(values.port);
const env = {
  PALKIT_TURNSTILE_SITE_KEY: TURNSTILE_TEST_SITE_KEY,
  PALKIT_TURNSTILE_SECRET: TURNSTILE_TEST_SECRET,
  // The demo's face video and knowledge page are served by this same process, on loopback.
  PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
  ...process.env,
};
const config = loadConfig(env, port);
const site: DemoSiteState = { key: '', state: undefined };
const service = await createService(config, { modules: [...resourceModules, demoSiteModule(site)] });
guardRejections(service.deps.log, service.deps.metrics);
const { url } = await service.listen(port);
const base = config.publicUrl;

// Ctrl-C closes the service gracefully at any point, also while the demo is being seeded.
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await service.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

site.key = demoKey(service);
try {
  await addApiKey(service.deps.db, site.key, DEMO_OWNER, 'demo');
  site.state = await seedDemo(service, url, site.key);
} catch (error) {
  // A seeding cut short by Ctrl-C is not a failure: stop() is closing the service and exits.
  if (!stopping) console.error(`palkit demo: seeding failed: ${error instanceof Error ? error.message : String(error)}`);
}

const d = site.state?.deployments;
if (!stopping) console.log(`
palkit is running at ${base}

  Demo site          ${base}/demo/
  Widget page        ${base}/demo/widget.html
  Product (embed)    ${base}/demo/product.html
  React page         ${base}/demo/react/
  Vue page           ${base}/demo/vue/
  Own surface        ${base}/demo/custom.html
  Your face          ${base}/demo/face.html
  Operator console   ${base}/demo/operator.html
  Landing page       ${d ? `${base}/d/${d.landing}   (password: ${LANDING_PASSWORD})` : '(not seeded)'}
  Captcha demo       ${base}/demo/captcha.html
  API reference      ${base}/docs   (OpenAPI: ${base}/openapi.json)

  Demo API key       ${site.key}   (owner ${DEMO_OWNER})
  Database           ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}
`);
