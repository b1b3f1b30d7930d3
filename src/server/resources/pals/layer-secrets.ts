// Secrets inside a PAL's layers (layers.llm.api_key, layers.*.token, secret, password, and
// headers.authorization at any depth) are write-only: stored encrypted as `<name>_encrypted`, shown as
// a mask. Sending the mask back (as a JSON Patch over the shown document does) keeps the stored value.
import type { Secrets } from '../../app/secrets.js';
import { badRequest } from '../../app/http/errors.js';

export const SECRET_MASK = '********';
type Layers = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Field names whose values are credentials, wherever they sit in a layer. */
const SECRET_FIELD = /^(api_key|apikey|token|access_token|refresh_token|secret|client_secret|password|authorization|x-api-key)$/i;
const ENCRYPTED = '_encrypted';
const isSealedField = (k: string) => k.endsWith(ENCRYPTED) && SECRET_FIELD.test(k.slice(0, -ENCRYPTED.length));

function seal(value: unknown, previous: unknown, secrets: Secrets, path: string): unknown {
  if (Array.isArray(value)) return value.map((v, i) => seal(v, Array.isArray(previous) ? previous[i] : undefined, secrets, `${path}.${i}`));
  if (!isObject(value)) return value;
  const prev = isObject(previous) ? previous : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (isSealedField(key)) throw badRequest(`${at} cannot be set; send ${key.slice(0, -ENCRYPTED.length)}`);
    if (!SECRET_FIELD.test(key)) {
      out[key] = seal(v, prev?.[key], secrets, at);
      continue;
    }
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v.length === 0 || v.length > 4096) throw badRequest(`${at} must be a non-empty string`);
    if (v === SECRET_MASK) {
      const kept = prev?.[key + ENCRYPTED];
      if (typeof kept !== 'string') throw badRequest(`${at}: send the value itself, not the mask`);
      out[key + ENCRYPTED] = kept;
    } else out[key + ENCRYPTED] = secrets.encrypt(v);
  }
  return out;
}

function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (isSealedField(key)) out[key.slice(0, -ENCRYPTED.length)] = SECRET_MASK;
    else out[key] = mask(v);
  }
  return out;
}

/** Encrypts new secrets, keeps masked ones from `previous` (the stored layers), refuses ciphertext from callers. */
export function sealLayerSecrets(layers: Layers, previous: Layers | undefined, secrets: Secrets): Layers {
  const out: Layers = {};
  for (const [name, layer] of Object.entries(layers)) out[name] = seal(layer, previous?.[name], secrets, `layers.${name}`);
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
