// The service's answers the elements read, each its zod schema from src/protocol, and the JSON Schemas
// the browser checks them with (written to response-shapes.ts by `npm run protocol:shapes`; the wire
// contract test fails when that file is not the schemas' current form).
import * as z from 'zod/mini';
import { CanvasInteractionRecorded } from './canvas-interaction.js';
import type { JsonShape } from './check-shape.js';
import { ErrorBody, GatePass, InitResponse, StartErrorCode, StartResponse } from './public.js';
import { RatingResponse } from './rating.js';

export const responses = { InitResponse, GatePass, StartResponse, ErrorBody, StartErrorCode, CanvasInteractionRecorded, RatingResponse };
export type ResponseName = keyof typeof responses;

/**
 * Each response's JSON Schema as zod writes it for what it accepts (`io: 'input'`), without documentation.
 * Refinements have no JSON Schema and are left to the service (the customization's 64 KB bound).
 */
export function responseShapes(): Record<ResponseName, JsonShape> {
  const bare = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(bare);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== '$schema' && k !== 'description')
        .map(([k, v]) => [k, bare(v)]),
    );
  };
  const entries = Object.entries(responses).map(([name, schema]) => [
    name,
    bare(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })),
  ]);
  return Object.fromEntries(entries) as Record<ResponseName, JsonShape>;
}
