// Secrets inside a PAL's layers — any field named like a key, token, secret, password or credential
// (`secret-names.ts`), at any depth, and every string below such a field — are write-only: stored
// encrypted as `<name>_encrypted` (a string in a secret array as `{ _encrypted }`), shown as a mask.
// Sending the mask back (as a JSON Patch over the shown document does) keeps the stored value.
import type { Secrets } from '../../app/secrets.js';
import { badRequest } from '../../app/http/errors.js';
import { holdsSecret } from './secret-names.js';

export const SECRET_MASK = '********';
type Layers = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENCRYPTED = '_encrypted';
/** Stored ciphertext: `<name>_encrypted` beside its name, or `{ _encrypted }` for a string inside a secret array. */
const isSealedField = (k: string) => k.endsWith(ENCRYPTED);
const isSealedValue = (v: unknown): v is { _encrypted: string } => isObject(v) && Object.keys(v).length === 1 && typeof v[ENCRYPTED] === 'string';
const MAX_SECRET = 20_000;

function sealString(v: string, kept: unknown, secrets: Secrets, at: string): string {
  if (v === SECRET_MASK) {
    if (typeof kept !== 'string') throw badRequest(`${at}: send the value itself, not the mask`);
    return kept;
  }
  if (v.length === 0 || v.length > MAX_SECRET) throw badRequest(`${at} must be a non-empty string of at most ${MAX_SECRET} characters`);
  return secrets.encrypt(v);
}

/** `inSecret`: below a field named like a secret (`credentials: {...}`), where every string is one. */
function seal(value: unknown, previous: unknown, secrets: Secrets, path: string, inSecret: boolean): unknown {
  if (Array.isArray(value)) {
    return value.map((v, i) => {
      const prev = Array.isArray(previous) ? previous[i] : undefined;
      if (inSecret && typeof v === 'string') return { [ENCRYPTED]: sealString(v, isSealedValue(prev) ? prev[ENCRYPTED] : undefined, secrets, `${path}.${i}`) };
      return seal(v, prev, secrets, `${path}.${i}`, inSecret);
    });
  }
  if (!isObject(value)) return value;
  const prev = isObject(previous) ? previous : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (isSealedField(key)) throw badRequest(`${at} cannot be set${key.length > ENCRYPTED.length ? `; send ${key.slice(0, -ENCRYPTED.length)}` : ''}`);
    const secret = inSecret || holdsSecret(key, v);
    if (!secret || typeof v !== 'string') {
      if (v !== undefined && v !== null) out[key] = seal(v, prev?.[key], secrets, at, secret);
      else if (!secret) out[key] = v;
      continue;
    }
    out[key + ENCRYPTED] = sealString(v, prev?.[key + ENCRYPTED], secrets, at);
  }
  return out;
}

function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (isSealedValue(value)) return SECRET_MASK;
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (isSealedField(key)) out[key.slice(0, -ENCRYPTED.length)] = SECRET_MASK;
    // A secret stored before sealing went by pattern: shown masked, never in clear.
    else if (holdsSecret(key, v)) out[key] = typeof v === 'string' ? SECRET_MASK : redact(v);
    else out[key] = mask(v);
  }
  return out;
}

/** Every string inside replaced by the mask. */
function redact(value: unknown): unknown {
  if (typeof value === 'string') return SECRET_MASK;
  if (Array.isArray(value)) return value.map(redact);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.endsWith(ENCRYPTED) ? k.slice(0, -ENCRYPTED.length) : k, redact(v)]));
}

/** Encrypts new secrets, keeps masked ones from `previous` (the stored layers), refuses ciphertext from callers. */
export function sealLayerSecrets(layers: Layers, previous: Layers | undefined, secrets: Secrets): Layers {
  const out: Layers = {};
  for (const [name, layer] of Object.entries(layers)) out[name] = seal(layer, previous?.[name], secrets, `layers.${name}`, false);
  return out;
}

/** The layers as shown: stored secrets replaced by the mask. */
export function maskLayerSecrets(layers: Layers | undefined): Layers {
  const out: Layers = {};
  for (const [name, layer] of Object.entries(layers ?? {})) out[name] = mask(layer);
  return out;
}

/** For the live PAL: the decrypted key of one layer, if one is stored. */
export function layerSecret(secrets: Secrets, definition: { layers?: unknown }, layer: string): string | undefined {
  const stored = isObject(definition.layers) && isObject(definition.layers[layer]) ? definition.layers[layer].api_key_encrypted : undefined;
  return typeof stored === 'string' ? secrets.decrypt(stored) : undefined;
}
