// One wire contract: the public shapes the elements and the service exchange (customization, the init
// response, the start body and response, start error codes, the canvas-interaction body, the rating
// body) are each one schema in src/protocol. This fails when the service's routes stop using them:
// the published OpenAPI components must be the protocol schemas' JSON Schemas, the routes' parsed
// types must be the protocol's types (checked by the compiler), and the browser's own ApiClient must
// read the real service's answers and refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { z } from '@hono/zod-openapi';
import fc from 'fast-check';
import * as zm from 'zod/mini';
import { ApiClient } from '../../../src/palkit/client/api.js';
import { PalClientError } from '../../../src/palkit/client/errors.js';
import { CanvasInteractionBody, CanvasInteractionRecorded } from '../../../src/protocol/canvas-interaction.js';
import { checkShape, shapeKeywords, type JsonShape } from '../../../src/protocol/check-shape.js';
import { responseShapes as committedShapes } from '../../../src/protocol/response-shapes.js';
import { responseShapes, responses, type ResponseName } from '../../../src/protocol/responses.js';
import { Customization, InitResponse, StartBody, StartErrorCode, StartResponse } from '../../../src/protocol/public.js';
import { RatingBody } from '../../../src/protocol/rating.js';
import { recordInteraction } from '../../../src/server/live/canvas/routes.js';
import { postRating } from '../../../src/server/resources/conversations/rating-routes.js';
import { init as initRoute, start as startRoute } from '../../../src/server/resources/deployments/routes.js';
import { START_REFUSAL_STATUS } from '../../../src/server/resources/deployments/refusals.js';
import { createPal } from '../../helpers/fixtures.js';
import { startListeningService, type TestService } from '../../helpers/service.js';

// ---- compile time: each route parses into (and answers with) the protocol's own type ----------------
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type BodyOf<R> = R extends { request: { body: { content: { 'application/json': { schema: infer S } } } } } ? S : never;
type OkOf<R> = R extends { responses: { 200: { content: { 'application/json': { schema: infer S } } } } } ? S : never;
const sameType = <A, B>(proof: Equal<A, B>) => proof;
sameType<z.output<BodyOf<typeof startRoute>>, zm.output<typeof StartBody>>(true);
sameType<z.output<OkOf<typeof startRoute>>, zm.output<typeof StartResponse>>(true);
sameType<z.output<OkOf<typeof initRoute>>, zm.output<typeof InitResponse>>(true);
sameType<z.output<BodyOf<typeof recordInteraction>>, zm.output<typeof CanvasInteractionBody>>(true);
sameType<z.output<OkOf<typeof recordInteraction>>, zm.output<typeof CanvasInteractionRecorded>>(true);
sameType<z.output<BodyOf<typeof postRating>>, zm.output<typeof RatingBody>>(true);
// Every start error code the elements know has a status on the service, and no other code exists there.
sameType<keyof typeof START_REFUSAL_STATUS, StartErrorCode>(true);

/** A JSON Schema without documentation (descriptions are added for the document only). */
function shapeOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shapeOf);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== 'description' && k !== '$schema')
      .map(([k, v]) => [k, shapeOf(v)]),
  );
}
const jsonSchemaOf = (schema: zm.ZodMiniType) => shapeOf(zm.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));

describe("the browser's checks of the service's answers", () => {
  it("are the protocol schemas' current JSON Schemas (src/protocol/response-shapes.ts; `npm run protocol:shapes` rewrites it)", () => {
    assert.deepEqual(committedShapes, responseShapes());
    const keywords = new Set<string>(shapeKeywords);
    const walk = (shape: unknown, path: string): void => {
      if (typeof shape !== 'object' || shape === null) return;
      for (const [key, value] of Object.entries(shape)) {
        assert.ok(keywords.has(key), `${path}: checkShape does not know the keyword ${key}`);
        if (key === 'properties') for (const [name, inner] of Object.entries(value as object)) walk(inner, `${path}.${name}`);
        else if (key === 'anyOf') (value as unknown[]).forEach((inner, i) => walk(inner, `${path}|${i}`));
        else if (['items', 'additionalProperties', 'propertyNames'].includes(key)) walk(value, `${path}.${key}`);
      }
    };
    for (const [name, shape] of Object.entries(committedShapes)) walk(shape, name);
  });

  it('accept, refuse and strip what zod does', () => {
    const init = {
      deployment_id: 'd1',
      channel: 'widget',
      has_password: false,
      is_available: true,
      unavailable_reason: null,
      captcha: null,
      limits: { max_call_duration: 600, daily_call_limit_per_user: null },
      extra: 1,
      customization: {
        theme: 'dark',
        radius: 8,
        strings: { de: { 'preview.start': 'Los' } },
        widget: { corner: 'top-left', future: true },
        future_key: { kept: true },
        landing_page: { cta_links: [{ label: 'a', url: 'b', x: 1 }] },
        recording: { destination_id: 'rd_abc' },
      },
    };
    const samples: Record<ResponseName, unknown[]> = {
      InitResponse: [
        init,
        { ...init, channel: 'phone' },
        { ...init, limits: {} },
        { ...init, captcha: { provider: 'turnstile', site_key: 'k' } },
        { ...init, captcha: { provider: 'other', site_key: 'k' } },
        { ...init, customization: { radius: -1 } },
        { ...init, customization: { recording: { destination_id: 'nope' } } },
        { ...init, customization: { strings: { de: { a: 1 } } } },
        { ...init, customization: { preview: { title: 'x'.repeat(4001) } } },
        { ...init, thumbnail_image_url: null },
        { ...init, is_available: 'yes' },
        { ...init, unavailable_reason: 'busy' },
        { ...init, unavailable_reason: 'gone' },
        { ...init, customization: [] },
        null,
        [],
        'init',
      ],
      GatePass: [{ gate_pass: 'g', expires_at: 't' }, { gate_pass: 'g' }, { gate_pass: 1, expires_at: 't', more: true }],
      StartResponse: [
        {
          conversation_id: 'c',
          conversation_name: 'n',
          conversation_url: 'u',
          status: 'active',
          created_at: 't',
          meeting_token: 'm',
          extra: 1,
        },
        { conversation_id: 'c', conversation_name: 'n', conversation_url: 'u', status: 'live', created_at: 't', meeting_token: 'm' },
        {
          conversation_id: 'c',
          conversation_name: 'n',
          conversation_url: 'u',
          status: 'ended',
          created_at: 't',
          meeting_token: 'm',
          callback_url: 'x',
        },
      ],
      ErrorBody: [{ error: 'busy' }, { message: 'm' }, { error: 'e', message: 'm' }, { error: 1, message: 'm' }, {}, 'busy'],
      StartErrorCode: ['busy', 'consent_required', 'nope', 1],
      CanvasInteractionRecorded: [{ success: true }, { success: false }, {}],
      RatingResponse: [
        { stars: 4, comment: null, rated_at: 't' },
        { stars: 4, comment: 'ok', rated_at: 't' },
        { stars: '4', comment: null, rated_at: 't' },
      ],
    };
    const agree = (name: ResponseName, value: unknown): void => {
      const zod = zm.safeParse(responses[name] as zm.ZodMiniType, value);
      const checked = checkShape(committedShapes[name] as JsonShape, value);
      const label = `${name} ${JSON.stringify(value)?.slice(0, 160)}`;
      assert.equal(checked.ok, zod.success, label);
      if (checked.ok && zod.success) assert.deepEqual(checked.value, zod.data, label);
    };
    for (const [name, values] of Object.entries(samples) as [ResponseName, unknown[]][]) for (const value of values) agree(name, value);

    // Then answers that differ from a valid one anywhere: a key dropped, or any JSON put in its place.
    const mutated = (value: unknown): fc.Arbitrary<unknown> => {
      const other = fc.jsonValue({ maxDepth: 2 });
      if (typeof value !== 'object' || value === null) return fc.oneof(fc.constant(value), other);
      const keys = Object.keys(value);
      if (!keys.length) return fc.oneof(fc.constant(value), other);
      return fc.oneof(
        fc.constant(value),
        other,
        fc.constantFrom(...keys).chain((key) =>
          fc.option(mutated((value as Record<string, unknown>)[key]), { nil: undefined }).map((inner) => {
            const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
            if (inner === undefined && !Array.isArray(value)) delete copy[key];
            else copy[key] = inner ?? null;
            return copy;
          }),
        ),
      );
    };
    for (const [name, values] of Object.entries(samples) as [ResponseName, unknown[]][])
      fc.assert(
        fc.property(fc.constantFrom(...values).chain(mutated), (value) => agree(name, value)),
        { numRuns: 300 },
      );
  });
});

describe('one wire contract for the elements and the service', () => {
  let t: TestService;
  let doc: { components: { schemas: Record<string, unknown> }; paths: Record<string, Record<string, any>> };
  let palId: string;
  before(async () => {
    t = await startListeningService();
    ({ palId } = (await createPal(t)) as { palId: string });
    doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
  });
  after(() => t.close());

  it('publishes each protocol schema as the OpenAPI component the routes use', () => {
    const components: Array<[string, zm.ZodMiniType]> = [
      ['DeploymentCustomization', Customization],
      ['DeploymentInit', InitResponse],
      ['StartDeployment', StartBody],
      ['ConversationCreated', StartResponse],
      ['CanvasInteractionBody', CanvasInteractionBody],
      ['CanvasInteractionRecorded', CanvasInteractionRecorded],
      ['RatingBody', RatingBody],
    ];
    for (const [name, schema] of components) assert.deepEqual(shapeOf(doc.components.schemas[name]), jsonSchemaOf(schema), name);

    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const json = (entry: any) => entry.content['application/json'].schema;
    const startOp = doc.paths['/v2/deployments/{deployment_id}/start']!.post;
    assert.deepEqual(json(startOp.requestBody), ref('StartDeployment'));
    assert.deepEqual(json(startOp.responses['200']), ref('ConversationCreated'));
    assert.deepEqual(json(doc.paths['/v2/deployments/{deployment_id}/init']!.get.responses['200']), ref('DeploymentInit'));
    const canvasOp = doc.paths['/v2/conversations/{conversation_id}/canvas/interactions']!.post;
    assert.deepEqual(json(canvasOp.requestBody), ref('CanvasInteractionBody'));
    assert.deepEqual(json(doc.paths['/v2/conversations/{conversation_id}/rating']!.post.requestBody), ref('RatingBody'));
    // The deployment resource's customization is the same component.
    assert.deepEqual(doc.paths['/v2/deployments']!.post.requestBody.content['application/json'].schema, ref('CreateDeployment'));
    assert.deepEqual((doc.components.schemas.CreateDeployment as any).properties.customization, ref('DeploymentCustomization'));
  });

  it('documents every start error code with its status', () => {
    const description = doc.paths['/v2/deployments/{deployment_id}/start']!.post.description as string;
    for (const code of StartErrorCode.options) {
      assert.match(description, new RegExp(`${START_REFUSAL_STATUS[code]} [^;]*\`${code}\``), code);
      const status = String(START_REFUSAL_STATUS[code]);
      assert.ok(doc.paths['/v2/deployments/{deployment_id}/start']!.post.responses[status], `${code}: ${status} is a documented response`);
    }
  });

  it("the browser's ApiClient reads the real service's init, start and refusals", async () => {
    const created = await t.api('POST', '/v2/deployments', {
      pal_id: palId,
      channel: 'embed',
      password: 'open-sesame',
      customization: {
        theme: 'dark',
        radius: 12,
        widget: { corner: 'top-left' },
        recording: { enabled: false },
        future_key: { kept: true },
      },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.deployment_id as string;
    assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status, 200);

    const client = new ApiClient({ apiBase: t.url });
    const init = await client.init(id);
    assert.equal(init.has_password, true);
    assert.equal(init.customization.theme, 'dark');
    assert.deepEqual(init.customization.future_key, { kept: true }, 'unknown customization keys reach the elements');

    const refusal = async (deploymentId: string, body: zm.input<typeof StartBody>) => {
      const error = await client.start(deploymentId, body).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof PalClientError, String(error));
      return error.code;
    };
    assert.equal(await refusal(id, {}), 'password_required');
    assert.equal(await refusal(id, { password: 'wrong' }), 'invalid_password');
    assert.equal(await refusal('dnotthere1', {}), 'deployment_not_found');
    assert.equal(await refusal(id, { password: 'open-sesame', memory_stores: ['x'.repeat(129)] }), 'invalid_request');
    assert.equal(await refusal(id, { password: 'open-sesame', pal_id: palId }), 'preview_requires_owner_key');

    const started = await client.start(id, { password: 'open-sesame', conversational_context: 'wire contract' });
    assert.match(started.conversation_id, /^c[a-z0-9]+$/);
    assert.equal(started.status, 'active');
    assert.ok(started.meeting_token.length > 20, 'the visitor gets a meeting token');
    assert.equal('callback_url' in started, false, 'an absent callback address is omitted, not null');

    // The canvas card's body, as the elements build it, is recorded by the service.
    await client.postCanvasInteraction(started.conversation_id, {
      interaction_id: 'ci_call_w1_dismiss_00000000-0000-4000-8000-000000000000',
      tool_call_id: 'call_w1',
      component: 'canvas.text',
      component_version: 'v1',
      type: 'dismiss',
      value: {},
    });
    await t.api('POST', `/v2/conversations/${started.conversation_id}/end`);
  });

  it('refuses what the protocol refuses, with its message and path', async () => {
    const r = await t.api('POST', '/v2/deployments', {
      pal_id: palId,
      channel: 'widget',
      customization: { recording: { destination_id: 'nope' } },
    });
    assert.equal(r.status, 400);
    assert.match(r.body.error, /^invalid_request: customization\.recording\.destination_id: must look like a recording destination id/);
    const big = await t.api('POST', '/v2/deployments', {
      pal_id: palId,
      channel: 'widget',
      customization: { strings: { en: { a: 'x'.repeat(70_000) } } },
    });
    assert.equal(big.status, 400);
    assert.match(big.body.error, /customization.*at most 65536 bytes/);
  });
});
