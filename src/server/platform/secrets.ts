// Server-side secrets under the master key (master-key.ts): HMAC signing and AES-256-GCM encryption of
// secrets stored at rest.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface Secrets {
  /** HMAC-SHA256 of `data` under a key derived for `purpose`, base64url. */
  sign(purpose: string, data: string): string;
  verify(purpose: string, data: string, signature: string): boolean;
  /** Encrypts a secret for storage (e.g. connector tokens); the output is opaque text. */
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
}

export function createSecrets(master: string): Secrets {
  const derive = (purpose: string) => createHash('sha256').update(`palkit:${purpose}:${master}`).digest();
  const encryptionKey = derive('encryption');
  const sign = (purpose: string, data: string) => createHmac('sha256', derive(purpose)).update(data).digest('base64url');
  return {
    sign,
    verify(purpose, data, signature) {
      const expected = Buffer.from(sign(purpose, data));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(ciphertext) {
      const [version, iv, tag, body] = ciphertext.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unreadable secret');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
