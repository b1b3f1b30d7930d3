// The service's side of the one wire contract: a shape defined once in src/protocol (zod/mini, which
// the elements parse with) becomes a route schema here. Parsing is the protocol schema's own, issues
// and messages included; the OpenAPI component is its JSON Schema, with descriptions added for the
// document only (so the browser bundle does not carry them).
import { z } from '@hono/zod-openapi';
import * as zm from 'zod/mini';

export interface SchemaDocs {
  description?: string;
  /** Descriptions of top-level properties. */
  properties?: Record<string, string>;
}

/** The JSON Schema the OpenAPI document shows for a protocol schema (what a client may send). */
export function protocolJsonSchema(schema: zm.ZodMiniType, docs: SchemaDocs = {}): Record<string, unknown> {
  const { $schema: _dialect, ...json } = zm.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  if (docs.description) json.description = docs.description;
  const properties = json.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [key, description] of Object.entries(docs.properties ?? {})) {
    if (!properties?.[key]) throw new Error(`protocolSchema: ${key} is not a property of the schema`);
    properties[key] = { ...properties[key], description };
  }
  return json;
}

/** A route schema (request or response) that parses with `schema` and is documented as component `name`. */
export function protocolSchema<T extends zm.ZodMiniType>(schema: T, name: string, docs?: SchemaDocs) {
  return z
    .unknown()
    .transform((value, ctx) => {
      const parsed = zm.safeParse(schema, value);
      if (parsed.success) return parsed.data as zm.output<T>;
      for (const issue of parsed.error.issues) ctx.addIssue(issue as never);
      return z.NEVER;
    })
    .openapi(name, protocolJsonSchema(schema, docs) as never);
}
