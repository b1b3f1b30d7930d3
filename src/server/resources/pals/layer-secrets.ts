// Secrets inside a PAL's layers — any field named like a key, token, secret, password or credential
// (`secret-names.ts`), at any depth, and every string below such a field — are write-only: stored
// encrypted as `<name>_encrypted` (a string in a secret array as `{ _encrypted }`), shown as a mask.
// Sending the mask back (as a JSON Patch over the shown document does) keeps the stored value.
// A `{name, value}` pair's value is judged by the name; in every layer a string is also judged by its shape
// (a URL with `?key=`, a Slack webhook, a bearer value, a JWT…). A post-call action's URL sealed so is
// opened again (unsealLayer) only as the job calls it; the MCP and conferencing fields the service reads
// (connector ids, tool names, a username) have no credential's shape.
import type { Secrets } from '../../platform/secrets.js';
import { badRequest } from '../../platform/http/errors.js';
import { looksLikeCredential } from '../../platform/log.js';
import { fieldHoldsSecret } from './secret-names.js';

export const SECRET_MASK = '********';
type Layers = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENCRYPTED = '_encrypted';
/** Stored ciphertext: `<name>_encrypted` beside its name, or `{ _encrypted }` for a string inside a secret array. */
const isSealedField = (k: string) => k.endsWith(ENCRYPTED);
const isSealedValue = (v: unknown): v is { _encrypted: string } =>
  isObject(v) && Object.keys(v).length === 1 && typeof v[ENCRYPTED] === 'string';
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
function seal(value: unknown, previous: unknown, secrets: Secrets, path: string, inSecret: boolean, byShape: boolean): unknown {
  if (Array.isArray(value)) {
    return value.map((v, i) => {
      const prev = Array.isArray(previous) ? previous[i] : undefined;
      const sealed = isSealedValue(prev) ? prev[ENCRYPTED] : undefined;
      // The mask sent back for a string sealed by its shape keeps it too.
      if (typeof v === 'string' && (inSecret || (byShape && looksLikeCredential(v)) || (v === SECRET_MASK && sealed !== undefined))) {
        return { [ENCRYPTED]: sealString(v, sealed, secrets, `${path}.${i}`) };
      }
      return seal(v, prev, secrets, `${path}.${i}`, inSecret, byShape);
    });
  }
  if (!isObject(value)) return value;
  const prev = isObject(previous) ? previous : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (isSealedField(key))
      throw badRequest(`${at} cannot be set${key.length > ENCRYPTED.length ? `; send ${key.slice(0, -ENCRYPTED.length)}` : ''}`);
    const resent = v === SECRET_MASK && typeof prev?.[key + ENCRYPTED] === 'string';
    const secret = inSecret || resent || fieldHoldsSecret(value, key, byShape);
    if (!secret || typeof v !== 'string') {
      if (v !== undefined && v !== null) out[key] = seal(v, prev?.[key], secrets, at, secret, byShape);
      else if (!secret) out[key] = v;
      continue;
    }
    out[key + ENCRYPTED] = sealString(v, prev?.[key + ENCRYPTED], secrets, at);
  }
  return out;
}

function mask(value: unknown, byShape: boolean): unknown {
  if (Array.isArray(value))
    return value.map((v) => (byShape && typeof v === 'string' && looksLikeCredential(v) ? SECRET_MASK : mask(v, byShape)));
  if (isSealedValue(value)) return SECRET_MASK;
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (isSealedField(key)) out[key.slice(0, -ENCRYPTED.length)] = SECRET_MASK;
    // A secret stored before sealing went by pattern (or by these rules): shown masked, never in clear.
    else if (fieldHoldsSecret(value, key, byShape)) out[key] = typeof v === 'string' ? SECRET_MASK : redact(v);
    else out[key] = mask(v, byShape);
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
  for (const [name, layer] of Object.entries(layers)) out[name] = seal(layer, previous?.[name], secrets, `layers.${name}`, false, true);
  return out;
}

/** The layers as shown: stored secrets replaced by the mask. */
export function maskLayerSecrets(layers: Layers | undefined): Layers {
  const out: Layers = {};
  for (const [name, layer] of Object.entries(layers ?? {})) out[name] = mask(layer, true);
  return out;
}

/** For the live PAL: the decrypted key of one layer, if one is stored. */
export function layerSecret(secrets: Secrets, definition: { layers?: unknown }, layer: string): string | undefined {
  const stored = isObject(definition.layers) && isObject(definition.layers[layer]) ? definition.layers[layer].api_key_encrypted : undefined;
  return typeof stored === 'string' ? secrets.decrypt(stored) : undefined;
}

/** A stored layer (or part of one) with its sealed values opened: for the service's own use, never shown. */
export function unsealLayer(secrets: Secrets, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => unsealLayer(secrets, v));
  if (isSealedValue(value)) return secrets.decrypt(value[ENCRYPTED]);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (isSealedField(key) && key.length > ENCRYPTED.length && typeof v === 'string')
      out[key.slice(0, -ENCRYPTED.length)] = secrets.decrypt(v);
    else out[key] = unsealLayer(secrets, v);
  }
  return out;
}
