// Seeds the demo through the public API, as a customer would: one owner and key, an echo PAL and a full
// PAL with the built-in face Ada, a knowledge document and the magic_canvas skill, and four deployments.
// Idempotent: what was seeded is remembered in the database and reused on the next start.
import type { Service } from '../src/server/app/service.js';

/** The built-in face every owner can use (migration 0700). */
export const BUILT_IN_FACE_ID = 'rpalkitada';

export interface DemoState {
  faceId: string;
  echoPalId: string;
  fullPalId: string;
  documentId: string;
  deployments: { widget: string; embed: string; landing: string; captcha: string };
}

export const DEMO_OWNER = 1;
export const LANDING_PASSWORD = 'palkit';

type Api = (method: string, path: string, body?: unknown) => Promise<any>;

function apiClient(url: string, key: string): Api {
  return async (method, path, body) => {
    const response = await fetch(url + path, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** The demo key is derived from the service secret, so every start prints the same one; only its hash is stored. */
export function demoKey(service: Service): string {
  return 'pk_demo_' + service.deps.secrets.sign('demo-key', `owner-${DEMO_OWNER}`).slice(0, 32);
}

async function exists(api: Api, path: string): Promise<boolean> {
  try {
    await api('GET', path);
    return true;
  } catch {
    return false;
  }
}

export async function seedDemo(service: Service, url: string, key: string): Promise<DemoState> {
  const { db } = service.deps;
  const api = apiClient(url, key);
  const saved = await db.selectFrom('service_settings').select('value').where('name', '=', 'demo_state').executeTakeFirst();
  if (saved) {
    const state = JSON.parse(saved.value) as DemoState;
    const alive = await Promise.all([
      exists(api, `/v2/pals/${state.fullPalId}`),
      exists(api, `/v2/pals/${state.echoPalId}`),
      ...Object.values(state.deployments).map((id) => exists(api, `/v2/deployments/${id}`)),
    ]);
    if (alive.every(Boolean)) return state;
  }

  // Ada, the built-in face: drawn by the elements, lips following the voice (a system face every owner has).
  const faceId = BUILT_IN_FACE_ID;
  const document = await api('POST', '/v2/documents', {
    document_url: `${url}/demo/knowledge.html`,
    document_name: 'Northwind Bikes FAQ',
    tags: ['demo'],
  });

  const echo = await api('POST', '/v2/pals', {
    pal_name: 'Echo',
    pipeline_mode: 'echo',
    default_face_id: faceId,
    disclosure_type: 'auto', // the default: disclosed where the conversation's policy is `eu` (below)
    custom_greeting: 'Hi! I repeat whatever you say or type.',
  });
  const full = await api('POST', '/v2/pals', {
    pal_name: 'Nova',
    system_prompt: 'You are Nova, the friendly product guide of Northwind Bikes. Answer from the knowledge base and keep answers short.',
    default_face_id: faceId,
    document_ids: [document.document_id],
    disclosure_type: 'auto', // the default: disclosed where the conversation's policy is `eu` (below)
    custom_greeting: 'Hello, I am Nova from Northwind Bikes. Ask me anything about our bikes, or say "help me choose".',
  });
  const echoPalId: string = echo.pal_id;
  const fullPalId: string = full.pal_id;
  await api('PUT', `/v2/pals/${fullPalId}/skills/magic_canvas`, { config: {} });

  // Every demo conversation reports to the demo site's callback receiver (shown in the operator console), and
  // runs under the `eu` policy: the EU AI Act (Article 50, from 2 August 2026) asks that people be told they
  // are talking to an AI system, so each call opens with the PAL's disclosure (its `auto` disclosure fires).
  // The elements' "AI" mark on her video shows whatever the policy (customization.ai_mark: false would hide it).
  const create = async (body: { customization?: Record<string, unknown> } & Record<string, unknown>) => {
    const d = await api('POST', '/v2/deployments', {
      callback_url: `${url}/demo/api/callbacks`,
      ...body,
      customization: { policy: 'eu', ...body.customization },
    });
    await api('PATCH', `/v2/deployments/${d.deployment_id}`, [{ op: 'replace', path: '/status', value: 'active' }]);
    return d.deployment_id as string;
  };
  const deployments = {
    widget: await create({
      pal_id: fullPalId,
      channel: 'widget',
      name: 'Demo widget',
      customization: {
        widget: { variant: 'full', corner: 'bottom-right', text: 'Talk to Nova' },
        preview: { title: 'Talk to Nova', description: 'Our product guide answers on video, right here.', btn_title: 'Start the call' },
      },
      limits: { max_call_duration: 600 },
    }),
    embed: await create({
      pal_id: fullPalId,
      channel: 'embed',
      name: 'Demo embed',
      customization: { preview: { title: 'Meet Nova', description: 'Ask about sizes, delivery and test rides.', btn_title: 'Start' } },
      limits: { max_call_duration: 600 },
    }),
    landing: await create({
      pal_id: echoPalId,
      channel: 'landing-page',
      name: 'Demo landing page',
      password: LANDING_PASSWORD,
      customization: {
        landing_page: {
          template: 'split',
          title: 'Echo, the demo PAL',
          description: 'A password-protected landing page. The password is "palkit".',
          cta_links: [{ label: 'palkit on npm', url: 'https://www.npmjs.com/package/palkit' }],
        },
      },
      limits: { max_call_duration: 300 },
    }),
    captcha: await create({
      pal_id: echoPalId,
      channel: 'embed',
      name: 'Demo with captcha',
      customization: { preview: { title: 'Protected by a captcha', description: 'Cloudflare Turnstile guards this start button.' } },
      limits: { max_call_duration: 300, captcha_enabled: true },
    }),
  };

  const state: DemoState = { faceId, echoPalId, fullPalId, documentId: document.document_id, deployments };
  await db
    .insertInto('service_settings')
    .values({ name: 'demo_state', value: JSON.stringify(state) })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: JSON.stringify(state) }))
    .execute();
  return state;
}
