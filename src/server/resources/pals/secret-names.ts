// Which layer fields hold credentials: by the shape of the name, not a fixed list, so `xi-api-key`,
// `Ocp-Apim-Subscription-Key`, `private_key`, `clientSecret` or `credentials.*` are caught as well as
// `api_key`. A name is cut into words (separators and camelCase); it names a secret when one word is
// a key, token, secret, password or credential word.
const SECRET_WORDS = new Set([
  'key', 'keys', 'apikey', 'accesskey', 'privatekey', 'secretkey', 'subscriptionkey', 'accountkey',
  'token', 'tokens', 'secret', 'secrets', 'password', 'passwords', 'passwd', 'pwd', 'passphrase',
  'credential', 'credentials', 'authorization', 'cookie', 'signature',
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
