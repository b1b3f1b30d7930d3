// Which layer fields hold credentials: by the shape of the name, not a fixed list, so `xi-api-key`,
// `Ocp-Apim-Subscription-Key`, `private_key`, `clientSecret` or `credentials.*` are caught as well as
// `api_key`. A name is cut into words (separators and camelCase); it names a secret when one word is
// a key, token, secret, password, credential, connection, PIN, one-time-password or signing word. Values are judged too: a
// `{name, value}` pair (a header list) by its name, and any string by its shape (the log scrubber's `looksLikeCredential`).
import { looksLikeCredential } from '../../platform/log.js';

const SECRET_WORDS = new Set([
  'key',
  'keys',
  'apikey',
  'accesskey',
  'privatekey',
  'secretkey',
  'subscriptionkey',
  'accountkey',
  'token',
  'tokens',
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'pass',
  'credential',
  'credentials',
  'authorization',
  'auth',
  'bearer',
  'jwt',
  'sas',
  'hmac',
  'cookie',
  'signature',
  // A connection string or DSN carries its password (`Server=…;Password=…`, `postgres://u:p@h/db`).
  'connection',
  'connectionstring',
  'connstr',
  'dsn',
  // One-time-password seeds, PINs and passcodes, signing keys (`otp_seed`, `pin`, `env.SIGNING`).
  'pin',
  'pincode',
  'passcode',
  'otp',
  'totp',
  'hotp',
  'mfa',
  'signing',
]);

export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** True when a field of this name holds a credential (its value, or everything inside it). */
export function isSecretName(name: string): boolean {
  return nameWords(name).some((w) => SECRET_WORDS.has(w));
}

/**
 * A counted setting such as `max_tokens` (a number or a boolean) is not a credential; a string, or an
 * object or array (whose strings all are), under a secret name is.
 */
export function holdsSecret(name: string, value: unknown): boolean {
  return isSecretName(name) && (typeof value === 'string' || (typeof value === 'object' && value !== null));
}

/** The fields of a `{name|key|header, value}` pair hold a secret when the name it gives is one (`{name: "X-Auth", value}`). */
export function pairNamesSecret(object: Record<string, unknown>): boolean {
  const named = object.name ?? object.key ?? object.header;
  return typeof named === 'string' && 'value' in object && isSecretName(named);
}

/**
 * Whether the field `key` of `object` holds a credential: by its name, by the name its pair gives, or
 * (when `byShape`) by the shape of its string (a URL with `user:pass@` or `?key=`, a bearer value, a JWT,
 * a connection string's `Password=`).
 */
export function fieldHoldsSecret(object: Record<string, unknown>, key: string, byShape: boolean): boolean {
  const value = object[key];
  if (holdsSecret(key, value)) return true;
  if (key === 'value' && pairNamesSecret(object) && (typeof value === 'string' || (typeof value === 'object' && value !== null)))
    return true;
  return byShape && typeof value === 'string' && looksLikeCredential(value);
}
