// Bad input anywhere gets a 4xx with an error body, never a 500: every operation of the OpenAPI
// document, with the key, is sent malformed JSON, bodies of the wrong shape, every declared field with
// a value of the wrong type, unknown and real-looking ids in the path, and nonsense query parameters.
// A refused create leaves no row behind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, onPostgres, type TestService } from '../../helpers/service.js';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
};
type Operation = {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: Array<{ in: string; name: string }>;
  security?: unknown[];
};

/** The schema's type, looking through nullable unions (`["integer", "null"]`, `anyOf`). */
function typeOf(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  return (schema.anyOf ?? schema.oneOf ?? []).map(typeOf).find((t) => t && t !== 'null');
}

/** A value no schema of this type accepts. */
function wrongFor(schema: Schema | undefined): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return 'not an object';
    default:
      return [[[]]];
  }
}

type OpenApiDoc = { components?: { schemas?: Record<string, Schema> } };

function resolve(doc: OpenApiDoc, schema: Schema | undefined): Schema | undefined {
  const ref = schema?.$ref?.replace('#/components/schemas/', '');
  return ref ? doc.components?.schemas?.[ref] : schema;
}

/** Values a field of this schema must refuse: the wrong type, null, and numbers or text past any column. */
function badValues(field: Schema): unknown[] {
  const values: unknown[] = [wrongFor(field), null];
  const type = typeOf(field);
  if (type === 'integer' || type === 'number') values.push(1e20, -2147483649, 0.5);
  if (type === 'string') values.push('x'.repeat(100_000));
  return values;
}

/**
 * Bodies of the wrong shape, then each declared field (and each field of a nested object, such as a
 * deployment's `limits`) with each bad value, and every field wrong at once.
 */
function badBodies(doc: OpenApiDoc, schema: Schema | undefined): unknown[] {
  const bodies: unknown[] = ['{"unclosed": ', '[]', 'null', '"text"', '42', { ['a'.repeat(200)]: 'x'.repeat(10_000) }];
  for (const [name, raw] of Object.entries(schema?.properties ?? {})) {
    const field = resolve(doc, raw) ?? {};
    for (const value of badValues(field)) bodies.push({ [name]: value });
    const nested =
      field.properties ?? (field.anyOf ?? field.oneOf ?? []).map((m) => resolve(doc, m)).find((m) => m?.properties)?.properties ?? {};
    for (const [inner, innerRaw] of Object.entries(nested)) {
      for (const value of badValues(resolve(doc, innerRaw) ?? {})) bodies.push({ [name]: { [inner]: value } });
    }
  }
  bodies.push(Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([name, field]) => [name, wrongFor(resolve(doc, field))])));
  // Text PostgreSQL cannot store, in every field at once.
  bodies.push(Object.fromEntries(Object.keys(schema?.properties ?? {}).map((name) => [name, 'nul\u0000inside'])));
  return bodies;
}

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: request validation, before any query';

describe('bad input never gets a 500', { skip }, () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.close());

  it('answers every operation with a 4xx and an error body for malformed, mistyped and unknown input', { timeout: 300_000 }, async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    const failures: string[] = [];
    let sent = 0;
    const check = async (method: string, path: string, body: unknown, query = '') => {
      const r = await t.api(method, path + query, body);
      sent++;
      const hasErrorBody =
        typeof r.body === 'object' && r.body !== null && (typeof r.body.error === 'string' || typeof r.body.message === 'string');
      if (r.status >= 500)
        failures.push(
          `${method} ${path}${query} ${JSON.stringify(body)?.slice(0, 80)} → ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`,
        );
      else if (r.status >= 400 && !hasErrorBody && r.status !== 404)
        failures.push(`${method} ${path}${query} → ${r.status} without an error body: ${JSON.stringify(r.body).slice(0, 120)}`);
    };
    for (const [path, ops] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [lower, op] of Object.entries(ops)) {
        const method = lower.toUpperCase();
        for (const id of ['zzz', 'r0000000000', '..%2F..%2Fetc', '%00', 'x'.repeat(300)]) {
          const concrete = path.replace(/\{[^}]+\}/g, id);
          const schema = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
          if (method === 'GET' || method === 'DELETE') {
            await check(method, concrete, undefined, '?page=-1&limit=abc&verbose=maybe&tags=%00&status=nonsense');
            continue;
          }
          // Bodies are varied on one id only; the other ids check the path.
          for (const body of id === 'zzz' ? badBodies(doc, schema) : [{}]) await check(method, concrete, body);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(sent > 500, `sent ${sent} requests`);
  });

  it('a refused create leaves no row behind', async () => {
    const counts = async () => {
      const out: Record<string, number> = {};
      for (const list of [
        '/v2/pals',
        '/v2/replicas',
        '/v2/deployments',
        '/v2/documents',
        '/v2/guardrails',
        '/v2/memory-stores',
        '/v2/connectors',
        '/v2/videos',
        '/v2/speech',
      ]) {
        const r = await t.api('GET', list);
        out[list] = r.body.total_count ?? r.body.data?.length ?? (Array.isArray(r.body) ? r.body.length : -1);
      }
      return out;
    };
    const before = await counts();
    for (const [path, body] of [
      ['/v2/pals', { pal_name: 'x', default_face_id: 'rmissing', system_prompt: 'hi' }],
      ['/v2/deployments', { pal_id: 'pmissing', channel: 'widget' }],
      ['/v2/deployments', { pal_id: 'pmissing', channel: 'nope' }],
      ['/v2/documents', { document_url: 42 }],
      ['/v2/documents', { document_url: 'https://example.com/a.pdf', document_name: 'a\u0000b' }],
      ['/v2/videos', { face_id: 'rmissing', script: 'hello' }],
      ['/v2/connectors', { name: 'x', server_url: 'not a url' }],
    ] as const) {
      const r = await t.api('POST', path, body);
      assert.ok(r.status >= 400 && r.status < 500, `${path} ${JSON.stringify(body)} → ${r.status}`);
    }
    assert.deepEqual(await counts(), before);
  });

  it('refuses NUL characters but keeps a backslash followed by u0000 as the text it is', async () => {
    const rule = (prompt: string) => ({ name: 'Text', data: [{ guardrail_name: 'rule', guardrail_prompt: prompt, modality: 'verbal' }] });
    const nul = await t.api('POST', '/v2/guardrails', rule('before\u0000after'));
    assert.equal(nul.status, 400);
    assert.match(nul.body.error, /NUL/);
    const literal = await t.api('POST', '/v2/guardrails', rule('Never print "\\u0000" or C:\\\\u0000'));
    assert.equal(literal.status, 200, JSON.stringify(literal.body));
    const read = await t.api('GET', `/v2/guardrails/${literal.body.guardrails_id}`);
    assert.equal(read.body.data[0].guardrail_prompt, 'Never print "\\u0000" or C:\\\\u0000');
    assert.equal((await t.api('GET', '/v2/pals/p%E0%A4%A')).status, 400, 'broken percent-encoding');
  });
});
