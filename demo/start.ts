// `npm start`: the companion service on its embedded database, the seeded demo, the customer demo site
// and the landing pages, in one process. Prints where everything is.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/platform/config.js';
import { addApiKey } from '../src/server/platform/http/auth.js';
import { resourceModules } from '../src/server/app/modules.js';
import { createService } from '../src/server/app/service.js';
import { guardRejections } from '../src/server/app/rejection-guard.js';
import { demoSiteModule, type DemoSiteState } from './site-module.js';
import { DEMO_OWNER, LANDING_PASSWORD, demoKey, seedDemo } from './seed.js';

// Cloudflare's published always-pass Turnstile test keys: the real widget works where the internet is reachable.
const TURNSTILE_TEST_SITE_KEY = '1x00000000000000000000AA';
const TURNSTILE_TEST_SECRET = '1x0000000000000000000000000000000AA';

// Loopback unless told otherwise: the demo's backend routes hand out transcripts and push cards.
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '8787' },
    host: { type: 'string', default: process.env.PALKIT_DEMO_HOST ?? '127.0.0.1' },
  },
});
const port = Number(values.port);
const host = values.host;
const env = {
  PALKIT_TURNSTILE_SITE_KEY: TURNSTILE_TEST_SITE_KEY,
  PALKIT_TURNSTILE_SECRET: TURNSTILE_TEST_SECRET,
  // The demo's face video and knowledge page are served by this same process, on loopback.
  PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
  ...process.env,
};
const config = loadConfig(env, port);
// This run's secret for the demo site's backend routes (/demo/api/*), printed with the URLs below.
const site: DemoSiteState = { key: '', state: undefined, demoKey: randomBytes(18).toString('base64url') };
const service = await createService(config, { modules: [...resourceModules, demoSiteModule(site)] });
guardRejections(service.deps.log, service.deps.metrics);
const { url } = await service.listen(port, host);
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
const withKey = `?demo_key=${site.demoKey}`;
const loopback = host === 'localhost' || host === '::1' || host.startsWith('127.');
if (!stopping)
  console.log(`
palkit is running at ${base}${loopback ? '' : `   (listening on ${host}: other machines can reach it; run a proxy with TLS in front)`}

  Demo site          ${base}/demo/${withKey}
  Widget page        ${base}/demo/widget.html
  Product (embed)    ${base}/demo/product.html
  React page         ${base}/demo/react/
  Vue page           ${base}/demo/vue/
  Own surface        ${base}/demo/custom.html${withKey}
  Your face          ${base}/demo/face.html${withKey}
  Operator console   ${base}/demo/operator.html${withKey}
  Landing page       ${d ? `${base}/d/${d.landing}   (password: ${LANDING_PASSWORD})` : '(not seeded)'}
  Captcha demo       ${base}/demo/captcha.html
  API reference      ${base}/docs   (OpenAPI: ${base}/openapi.json)

  Demo API key       ${site.key}   (owner ${DEMO_OWNER})
  Demo site key      ${site.demoKey}   (this run's; the links above carry it, /demo/api/* needs it)
  Database           ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}
`);
