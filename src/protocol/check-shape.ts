// Checks a JSON value against a protocol schema's JSON Schema (response-shapes.ts), so the elements read
// the service's answers without zod's runtime before a call. Only the keywords zod's toJSONSchema writes
// for the wire shapes, with zod's parse semantics: an object without `additionalProperties` keeps only
// its known keys (z.object), `{}` keeps every key (z.looseObject), `false` refuses unknown ones
// (z.strictObject); lengths count UTF-16 units; the first `anyOf` branch that fits wins.

export interface JsonShape {
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonShape>;
  required?: string[];
  additionalProperties?: JsonShape | false;
  propertyNames?: JsonShape;
  items?: JsonShape;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: readonly unknown[];
  const?: unknown;
  anyOf?: JsonShape[];
}

type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** The keywords checkShape understands; a shape with any other keyword is refused by the contract test. */
export const shapeKeywords = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'pattern',
  'enum',
  'const',
  'anyOf',
] as const;

const MISMATCH = Symbol('mismatch');

/** The value as zod would parse it (unknown keys of plain objects dropped), or `ok: false` when it does not fit. */
export function checkShape<T>(shape: JsonShape, value: unknown): { ok: true; value: T } | { ok: false } {
  const checked = check(shape, value);
  return checked === MISMATCH ? { ok: false } : { ok: true, value: checked as T };
}

function check(shape: JsonShape, value: unknown): unknown {
  if (shape.anyOf) {
    for (const branch of shape.anyOf) {
      const checked = check(branch, value);
      if (checked !== MISMATCH) return checked;
    }
    return MISMATCH;
  }
  const types = shape.type === undefined ? [] : [shape.type].flat();
  if (shape.type !== undefined && !types.some((type) => isType(type, value))) return MISMATCH;
  if ('const' in shape && value !== shape.const) return MISMATCH;
  if (shape.enum && !shape.enum.includes(value)) return MISMATCH;
  if (typeof value === 'string') {
    if (
      (shape.minLength !== undefined && value.length < shape.minLength) ||
      (shape.maxLength !== undefined && value.length > shape.maxLength)
    )
      return MISMATCH;
    if (shape.pattern !== undefined && !new RegExp(shape.pattern).test(value)) return MISMATCH;
  }
  if (
    typeof value === 'number' &&
    ((shape.minimum !== undefined && value < shape.minimum) || (shape.maximum !== undefined && value > shape.maximum))
  )
    return MISMATCH;
  // A shape without a type (`{}`: z.unknown(), a loose object's other keys) takes any value as it is.
  if (types.includes('array') && Array.isArray(value)) return checkArray(shape, value);
  if (types.includes('object') && isType('object', value)) return checkObject(shape, value as Record<string, unknown>);
  return value;
}

function checkArray(shape: JsonShape, value: unknown[]): unknown {
  if ((shape.minItems !== undefined && value.length < shape.minItems) || (shape.maxItems !== undefined && value.length > shape.maxItems))
    return MISMATCH;
  if (!shape.items) return value;
  const out: unknown[] = [];
  for (const item of value) {
    const checked = check(shape.items, item);
    if (checked === MISMATCH) return MISMATCH;
    out.push(checked);
  }
  return out;
}

function checkObject(shape: JsonShape, value: Record<string, unknown>): unknown {
  const known = shape.properties ?? {};
  for (const key of shape.required ?? []) if (!(key in value)) return MISMATCH;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = Object.hasOwn(known, key) ? known[key] : undefined;
    const rest = shape.additionalProperties;
    if (property === undefined && rest === undefined) continue; // z.object: unknown keys are dropped
    if (property === undefined && rest === false) return MISMATCH;
    if (property === undefined && shape.propertyNames && check(shape.propertyNames, key) === MISMATCH) return MISMATCH;
    const checked = check(property ?? (rest as JsonShape), item);
    if (checked === MISMATCH) return MISMATCH;
    out[key] = checked;
  }
  return out;
}

function isType(type: JsonType, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isSafeInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}
