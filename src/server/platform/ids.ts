// Resource identifiers: a one-letter prefix from the spec and random lowercase alphanumerics.
import { randomBytes } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function randomSuffix(length = 14): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** e.g. newId('p') → 'p3k9x…'. Prefixes: p PAL, r face, d deployment/document, c connector/conversation, m memory store. */
export function newId(prefix: string, length = 14): string {
  return prefix + randomSuffix(length);
}
