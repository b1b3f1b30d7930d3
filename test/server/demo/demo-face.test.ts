// The demo's "Your face" backend records consent and gives the face to its visitor alone (issue 52, N36):
// the consent is who (the name given), when and the exact words the page showed, kept with the face through
// the API's `consent`; only the visitor token the creation answered reads, calls or deletes the face; and a
// visitor's face is deleted a day after it was made, on the service's clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addApiKey } from '../../../src/server/platform/http/auth.js';
import { resourceModules } from '../../../src/server/app/modules.js';
import { demoSiteModule, type DemoSiteState } from '../../../demo/site-module.js';
import { DEMO_CONSENT, sweepDemoFaces } from '../../../demo/face-routes.js';
import { DEMO_OWNER } from '../../../demo/seed.js';
import { portraitPhoto } from '../../helpers/face-clips.js';
import { shiftedClock } from '../../helpers/clock.js';
import { startListeningService, type TestService } from '../../helpers/service.js';

const DEMO_KEY = 'k3y-of-this-run-0123456789';

describe("the demo's face page backend", () => {
  let t: TestService;
  let offsetMs = 0;
  const site: DemoSiteState = { key: 'pk_demo_face_test', state: undefined, demoKey: DEMO_KEY };
  const photo = new Uint8Array(portraitPhoto('jpg'));

  before(async () => {
    // Training is not what this is about: the faces stay `training`.
    t = await startListeningService(
      {},
      { modules: [...resourceModules, demoSiteModule(site)], runJobs: false, clock: shiftedClock(() => offsetMs) },
    );
    await addApiKey(t.service.deps.db, site.key, DEMO_OWNER, 'demo');
  });
  after(() => t?.close());

  const demo = (path: string, init: RequestInit = {}) =>
    fetch(`${t.url}${path}`, { ...init, headers: { 'x-demo-key': DEMO_KEY, ...(init.headers as Record<string, string> | undefined) } });
  const make = async (query: string) => {
    const r = await demo(`/demo/api/face?${query}`, { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: photo });
    return { status: r.status, body: (await r.json()) as { face_id: string; visitor_token: string; error?: string } };
  };

  it('makes no face without the consent the page showed', async () => {
    assert.equal((await make('')).status, 400);
    assert.equal((await make('consent=yes')).status, 400, 'the old checkbox value is not the consent');
    const shown = await (await demo('/demo/api/face/consent')).json();
    assert.deepEqual(shown, { ...DEMO_CONSENT, kept_hours: 24 });
  });

  it('records who consented, when and to what text, with the face', async () => {
    const made = await make(`consent=${DEMO_CONSENT.version}&name=${encodeURIComponent('Dana Reyes')}`);
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const face = (await t.api('GET', `/v2/faces/${made.body.face_id}`, undefined, { key: site.key })).body;
    assert.equal(face.consent.given_by, 'Dana Reyes (a visitor of the demo)');
    assert.equal(face.consent.text, DEMO_CONSENT.text);
    assert.ok(Math.abs(Date.parse(face.consent.given_at) - Date.now()) < 60_000, face.consent.given_at);
    assert.ok(face.consent.recorded_at);
    const unnamed = await make(`consent=${DEMO_CONSENT.version}`);
    assert.equal(
      (await t.api('GET', `/v2/faces/${unnamed.body.face_id}`, undefined, { key: site.key })).body.consent.given_by,
      'an unnamed visitor of the demo',
    );
  });

  it('gives the face to its visitor alone, who may delete it', async () => {
    const mine = (await make(`consent=${DEMO_CONSENT.version}`)).body;
    const other = (await make(`consent=${DEMO_CONSENT.version}`)).body;
    const as = (token: string): Record<string, string> => ({ 'x-face-token': token });
    assert.equal((await demo(`/demo/api/face/${mine.face_id}`)).status, 404);
    assert.equal((await demo(`/demo/api/face/${mine.face_id}`, { headers: as(other.visitor_token) })).status, 404);
    assert.equal(
      (await demo(`/demo/api/face/${mine.face_id}/conversation`, { method: 'POST', headers: as(other.visitor_token) })).status,
      404,
    );
    assert.equal((await demo(`/demo/api/face/${mine.face_id}`, { method: 'DELETE', headers: as(other.visitor_token) })).status, 404);
    const read = await demo(`/demo/api/face/${mine.face_id}`, { headers: as(mine.visitor_token) });
    assert.equal(read.status, 200);
    assert.equal((await read.json()).status, 'training');

    const deleted = await demo(`/demo/api/face/${mine.face_id}`, { method: 'DELETE', headers: as(mine.visitor_token) });
    assert.equal(deleted.status, 200);
    assert.equal((await t.api('GET', `/v2/faces/${mine.face_id}`, undefined, { key: site.key })).status, 404);
    assert.equal(
      (await t.api('GET', `/v2/faces/${other.face_id}`, undefined, { key: site.key })).status,
      200,
      "the other visitor's face stays",
    );
  });

  it("deletes a visitor's face a day after it was made, on the service's clock", async () => {
    const made = (await make(`consent=${DEMO_CONSENT.version}`)).body;
    offsetMs = 23 * 3600_000;
    const fresh = (await make(`consent=${DEMO_CONSENT.version}`)).body;
    assert.equal(await sweepDemoFaces(t.service.deps, site, DEMO_OWNER), 0, 'nothing is a day old yet');
    offsetMs = 24 * 3600_000 + 60_000;
    assert.ok((await sweepDemoFaces(t.service.deps, site, DEMO_OWNER)) >= 1);
    assert.equal((await t.api('GET', `/v2/faces/${made.face_id}`, undefined, { key: site.key })).status, 404);
    assert.equal(
      (await t.api('GET', `/v2/faces/${fresh.face_id}`, undefined, { key: site.key })).status,
      200,
      'a face younger than a day stays',
    );
    offsetMs = 0;
  });
});
