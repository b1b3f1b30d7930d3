// A face's consent (issue 52, N36): POST /v2/faces and /v2/replicas take an optional `consent` (who, to what
// text, when), kept with the face and shown in its reads; a face made without one reads as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../../helpers/service.js';

describe('face consent', () => {
  let t: TestService;
  // Training is not what this is about: the faces stay `training`.
  before(async () => (t = await startTestService({}, { runJobs: false })));
  after(() => t?.close());
  const url = 'https://media.example.com/me.mp4';
  const consent = {
    given_by: 'Dana Reyes',
    text: 'I agree that Northwind makes a talking face of me for its shop.',
    given_at: '2026-11-20T10:00:00+01:00',
  };

  it('records who consented, when and to what text, under either name', async () => {
    const face = await t.api('POST', '/v2/faces', { face_name: 'Dana', train_video_url: url, consent });
    assert.equal(face.status, 200, JSON.stringify(face.body));
    const expected = { given_by: consent.given_by, text: consent.text, given_at: '2026-11-20T09:00:00.000Z' };
    assert.deepEqual({ ...face.body.consent, recorded_at: undefined }, { ...expected, recorded_at: undefined });
    assert.match(face.body.consent.recorded_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual((await t.api('GET', `/v2/faces/${face.body.face_id}`)).body.consent, face.body.consent);
    const replica = await t.api('POST', '/v2/replicas', {
      replica_name: 'Dana',
      train_video_url: url,
      consent: { given_by: 'Dana', text: 'Yes.' },
    });
    assert.equal(replica.status, 200, JSON.stringify(replica.body));
    assert.equal(replica.body.consent.given_at, replica.body.consent.recorded_at, 'when not given: the time it was received');
  });

  it("keeps the interface's fields: consent is optional, and absent when none was given", async () => {
    const face = await t.api('POST', '/v2/replicas', { replica_name: 'Plain', train_video_url: url });
    assert.equal(face.status, 200);
    assert.ok(!('consent' in face.body));
  });

  it('refuses a consent without who or what, or with other fields', async () => {
    for (const bad of [
      { text: 'x' },
      { given_by: 'x' },
      { given_by: ' ', text: 'x' },
      { given_by: 'x', text: 'y', given_at: 'yesterday' },
      { given_by: 'x', text: 'y', ip: '1.2.3.4' },
    ]) {
      const r = await t.api('POST', '/v2/faces', { train_video_url: url, consent: bad });
      assert.equal(r.status, 400, JSON.stringify(bad));
    }
  });

  it('is documented in the OpenAPI document, recommended', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    const input = doc.components.schemas.FaceConsentInput;
    assert.ok(input, 'FaceConsentInput');
    assert.match(input.description, /Recommended/);
    assert.ok(doc.components.schemas.CreateFace.properties.consent);
    assert.ok(doc.components.schemas.CreateReplica.properties.consent);
  });
});
