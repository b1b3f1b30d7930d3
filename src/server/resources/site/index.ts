// What browsers load from the service itself: the script-tag bundle and the hosted landing pages.
import type { ResourceModule } from '../module.js';
import { readAsset, type Asset } from './assets.js';
import { acceptedEncodings } from './encoding.js';
import { landingPageHtml, notFoundPageHtml } from './landing-page.js';

const assetHeaders = (asset: Asset, immutable: boolean) => ({
  'content-type': asset.type,
  ...(asset.encoding ? { 'content-encoding': asset.encoding } : {}),
  // One URL, a copy per Accept-Encoding: a cache must not hand the brotli copy to a browser without brotli.
  vary: 'accept-encoding',
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
    const serve = async (path: string, immutable: boolean, accept: string | undefined): Promise<Response> => {
      const asset = await readAsset(path, acceptedEncodings(accept));
      if (!asset)
        return new Response('palkit: the browser bundle is not built yet; run `npm run build`.', {
          status: 503,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        });
      return new Response(asset.bytes, { status: 200, headers: assetHeaders(asset, immutable) });
    };
    app.get('/palkit.js', (c) => serve('palkit.js', false, c.req.header('accept-encoding')));
    app.get('/palkit-full.js', (c) => serve('palkit-full.js', false, c.req.header('accept-encoding')));
    // The local room's microphone worklet, for pages whose policy allows scripts from this origin only.
    app.get('/palkit-microphone.js', (c) => serve('palkit-microphone.js', false, c.req.header('accept-encoding')));
    app.get('/chunks/:file', (c) => serve(`chunks/${c.req.param('file')}`, true, c.req.header('accept-encoding')));
    app.get(
      '/favicon.ico',
      () => new Response(ICON, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } }),
    );

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
