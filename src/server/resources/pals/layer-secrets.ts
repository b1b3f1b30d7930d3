// Keys inside a PAL's layers (e.g. layers.llm.api_key for a custom model endpoint) are write-only:
// stored encrypted as `api_key_encrypted`, shown as a mask. Sending the mask back (as a JSON Patch over
// the shown document does) keeps the stored key.
import type { Secrets } from '../../secrets.js';
import { badRequest } from '../../http/errors.js';

export const SECRET_MASK = '********';
type Layers = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Encrypts new keys, keeps masked ones from `previous` (the stored layers), refuses ciphertext from callers. */
export function sealLayerSecrets(layers: Layers, previous: Layers | undefined, secrets: Secrets): Layers {
  const out: Layers = {};
  for (const [name, layer] of Object.entries(layers)) {
    if (!isObject(layer)) {
      out[name] = layer;
      continue;
    }
    const { api_key, api_key_encrypted, ...rest } = layer;
    if (api_key_encrypted !== undefined) throw badRequest(`layers.${name}.api_key_encrypted cannot be set; send api_key`);
    if (api_key === undefined || api_key === null) out[name] = rest;
    else if (typeof api_key !== 'string' || api_key.length === 0 || api_key.length > 4096) throw badRequest(`layers.${name}.api_key must be a non-empty string`);
    else if (api_key === SECRET_MASK) {
      const kept = (previous?.[name] as Record<string, unknown> | undefined)?.api_key_encrypted;
      if (typeof kept !== 'string') throw badRequest(`layers.${name}.api_key: send the key itself, not the mask`);
      out[name] = { ...rest, api_key_encrypted: kept };
    } else out[name] = { ...rest, api_key_encrypted: secrets.encrypt(api_key) };
  }
  return out;
}

/** The layers as shown: stored keys replaced by the mask. */
export function maskLayerSecrets(layers: Layers): Layers {
  const out: Layers = {};
  for (const [name, layer] of Object.entries(layers)) {
    if (!isObject(layer) || layer.api_key_encrypted === undefined) {
      out[name] = layer;
      continue;
    }
    const { api_key_encrypted: _, ...rest } = layer;
    out[name] = { ...rest, api_key: SECRET_MASK };
  }
  return out;
}

/** For the live PAL: the decrypted key of one layer, if one is stored. */
export function layerSecret(secrets: Secrets, definition: { layers?: unknown }, layer: string): string | undefined {
  const stored = isObject(definition.layers) && isObject(definition.layers[layer]) ? definition.layers[layer].api_key_encrypted : undefined;
  return typeof stored === 'string' ? secrets.decrypt(stored) : undefined;
}
