// RFC 6902 JSON Patch over plain JSON documents. Applies to a deep copy: a failing patch changes nothing.
import { z } from '@hono/zod-openapi';

export const JsonPatchOperation = z
  .discriminatedUnion('op', [
    z.object({ op: z.literal('add'), path: z.string(), value: z.unknown() }),
    z.object({ op: z.literal('remove'), path: z.string() }),
    z.object({ op: z.literal('replace'), path: z.string(), value: z.unknown() }),
    z.object({ op: z.literal('move'), from: z.string(), path: z.string() }),
    z.object({ op: z.literal('copy'), from: z.string(), path: z.string() }),
    z.object({ op: z.literal('test'), path: z.string(), value: z.unknown() }),
  ])
  .openapi('JsonPatchOperation');
export type JsonPatchOperation = z.infer<typeof JsonPatchOperation>;

export const JsonPatch = z
  .array(JsonPatchOperation)
  .max(200)
  .openapi('JsonPatch', {
    description: 'RFC 6902 JSON Patch document',
    example: [{ op: 'replace', path: '/name', value: 'New name' }],
  });

export class JsonPatchError extends Error {}

type Json = unknown;

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer "${pointer}"`);
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  // Writing `__proto__` (or `constructor/prototype`) would reach Object.prototype, not the document.
  tokens.forEach((t, i) => {
    if (t === '__proto__' || (t === 'prototype' && tokens[i - 1] === 'constructor'))
      throw new JsonPatchError(`path "${pointer}" is not allowed`);
  });
  return tokens;
}

function isContainer(v: Json): v is Record<string, Json> | Json[] {
  return typeof v === 'object' && v !== null;
}

function arrayIndex(arr: Json[], token: string, forInsert: boolean): number {
  if (forInsert && token === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new JsonPatchError(`invalid array index "${token}"`);
  const i = Number(token);
  if (i > arr.length || (!forInsert && i === arr.length)) throw new JsonPatchError(`array index ${i} out of range`);
  return i;
}

function parentOf(doc: Json, tokens: string[], pointer: string): { parent: Record<string, Json> | Json[]; key: string } {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (isContainer(node) && Object.hasOwn(node, token)) node = (node as Record<string, Json>)[token];
    else throw new JsonPatchError(`path "${pointer}" does not exist`);
  }
  if (!isContainer(node)) throw new JsonPatchError(`path "${pointer}" does not exist`);
  return { parent: node, key: tokens[tokens.length - 1]! };
}

function get(doc: Json, pointer: string): Json {
  let node = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (isContainer(node) && Object.hasOwn(node, token)) node = (node as Record<string, Json>)[token];
    else throw new JsonPatchError(`path "${pointer}" does not exist`);
  }
  return node;
}

function add(doc: Json, pointer: string, value: Json): Json {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else parent[key] = value;
  return doc;
}

function remove(doc: Json, pointer: string): Json {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new JsonPatchError('cannot remove the whole document');
  const { parent, key } = parentOf(doc, tokens, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new JsonPatchError(`path "${pointer}" does not exist`);
  return doc;
}

function deepEqual(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
function canonical(v: Json): Json {
  if (Array.isArray(v)) return v.map(canonical);
  if (isContainer(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, Json>)[k])]),
    );
  return v;
}

/** Applies the operations in order to a copy of `document` and returns the result; throws JsonPatchError. */
export function applyJsonPatch<T>(document: T, operations: JsonPatchOperation[]): T {
  let doc: Json = structuredClone(document);
  for (const op of operations) {
    switch (op.op) {
      case 'add':
        doc = add(doc, op.path, structuredClone(op.value));
        break;
      case 'remove':
        doc = remove(doc, op.path);
        break;
      case 'replace':
        get(doc, op.path);
        doc =
          parsePointer(op.path).length === 0 ? structuredClone(op.value) : add(remove(doc, op.path), op.path, structuredClone(op.value));
        break;
      case 'move': {
        if (op.path.startsWith(op.from + '/')) throw new JsonPatchError('cannot move a value into itself');
        const value = get(doc, op.from);
        doc = add(remove(doc, op.from), op.path, value);
        break;
      }
      case 'copy':
        doc = add(doc, op.path, structuredClone(get(doc, op.from)));
        break;
      case 'test':
        if (!deepEqual(get(doc, op.path), op.value)) throw new JsonPatchError(`test failed at "${op.path}"`);
        break;
    }
  }
  return doc as T;
}
