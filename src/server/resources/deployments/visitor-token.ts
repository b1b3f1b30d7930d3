// Whose memories a public start may reach. memory_stores on a public start are visitor identifiers that
// anyone can type, so they count only when the embedding site vouches for them: a short-lived visitor
// token its backend signs with the deployment's visitor_token_secret (an HS256 JWT: `exp`, and the
// identifiers in `memory_stores` or `sub`; docs/embedding.md shows how to make one). The owner's
// x-api-key vouches too (a preview). Identifiers nobody vouches for are ignored, with a log line: the
// visitor gets the call, without anyone's memories.
import type { ServiceDeps } from '../../platform/context.js';

/** The longest a token may live: a token is made for one visit, when the page is served. */
export const MAX_TOKEN_SECONDS = 24 * 3600;

/** The identifiers the token vouches for, or null when it is not a valid, live token of this deployment's secret. */
export async function vouchedIdentifiers(secret: string, token: string, now: Date): Promise<string[] | null> {
  // Loaded on the first visitor token, not with the service: jose is 46 modules that only this reads.
  const { jwtVerify } = await import('jose');
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      currentDate: now,
    });
    if (payload.exp! > now.getTime() / 1000 + MAX_TOKEN_SECONDS) return null;
    const listed = payload.memory_stores;
    if (Array.isArray(listed)) return listed.filter((v): v is string => typeof v === 'string');
    return typeof payload.sub === 'string' ? [payload.sub] : [];
  } catch {
    return null;
  }
}

interface Asked {
  deploymentId: string;
  /** The deployment's secret, encrypted (null: none set, so no token can vouch). */
  secretEncrypted: string | null;
  memoryStores: string[] | undefined;
  visitorToken: string | undefined;
  /** The start carries the owner's x-api-key. */
  byOwner: boolean;
}

/**
 * The memory_stores a public start keeps: all of them for the owner; for a visitor, those the token
 * vouches for (all the token names when the body names none); otherwise none.
 */
export async function visitorMemoryStores(
  deps: Pick<ServiceDeps, 'secrets' | 'log' | 'clock'>,
  asked: Asked,
): Promise<string[] | undefined> {
  const named = asked.memoryStores ?? [];
  if (asked.byOwner) return asked.memoryStores;
  const vouched =
    asked.visitorToken && asked.secretEncrypted
      ? await vouchedIdentifiers(deps.secrets.decrypt(asked.secretEncrypted), asked.visitorToken, deps.clock.now())
      : null;
  const kept = vouched === null ? [] : named.length ? named.filter((id) => vouched.includes(id)) : vouched.slice(0, 20);
  if (kept.length < named.length) {
    deps.log.info('memory_stores ignored: no valid visitor token vouches for them', {
      deployment_id: asked.deploymentId,
      ignored: named.length - kept.length,
      reason: !asked.visitorToken
        ? 'no visitor_token'
        : !asked.secretEncrypted
          ? 'the deployment has no visitor_token_secret'
          : vouched === null
            ? 'invalid or expired visitor_token'
            : 'not in the token',
    });
  }
  return kept.length ? kept : undefined;
}
