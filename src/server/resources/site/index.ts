// What browsers load from the service itself: the script-tag bundle and the hosted landing pages.
import type { ResourceModule } from '../module.js';
import { readAsset } from './assets.js';
import { landingPageHtml, notFoundPageHtml } from './landing-page.js';

const assetHeaders = (type: string, immutable: boolean) => ({
  'content-type': type,
  // Chunks are imported with import() from customer origins: that needs CORS.
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
});

/** The icon of every page the service serves (landing pages, rooms, the demo), so browsers do not ask in vain. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="16" fill="#5b5bf0"/><circle cx="32" cy="27" r="12" fill="#fff"/><path d="M14 54c3-10 10-15 18-15s15 5 18 15" fill="#fff"/></svg>`;

export const siteModule: ResourceModule = {
  name: 'site',
  routes(app, deps) {
    const serve = async (path: string, immutable: boolean): Promise<Response> => {
      const asset = await readAsset(path);
      if (!asset) return new Response('palkit: the browser bundle is not built yet; run `npm run build`.', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      return new Response(asset.bytes, { status: 200, headers: assetHeaders(asset.type, immutable) });
    };
    app.get('/palkit.js', () => serve('palkit.js', false));
    app.get('/palkit-full.js', () => serve('palkit-full.js', false));
    // The local room's microphone worklet, for pages whose policy allows scripts from this origin only.
    app.get('/palkit-microphone.js', () => serve('palkit-microphone.js', false));
    app.get('/chunks/:file', (c) => serve(`chunks/${c.req.param('file')}`, true));
    app.get('/favicon.ico', () => new Response(ICON, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } }));

    app.get('/d/:deploymentId', async (c) => {
      const id = c.req.param('deploymentId');
      const deployment = await deps.db
        .selectFrom('deployments')
        .select(['deployment_id', 'name', 'customization', 'channel'])
        .where('deployment_id', '=', id)
        .executeTakeFirst();
      if (!deployment || deployment.channel !== 'landing-page') return c.html(notFoundPageHtml(), 404);
      const landing = (deployment.customization.landing_page ?? {}) as { title?: unknown; description?: unknown };
      const lang = typeof deployment.customization.lang === 'string' ? deployment.customization.lang : 'en';
      return c.html(
        landingPageHtml({
          deploymentId: deployment.deployment_id,
          apiBase: deps.config.publicUrl,
          title: typeof landing.title === 'string' && landing.title ? landing.title : deployment.name || 'Conversation',
          description: typeof landing.description === 'string' ? landing.description : '',
          lang,
        }),
      );
    });
  },
};
