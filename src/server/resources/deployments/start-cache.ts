// The deployments recently started on this instance, kept for a few seconds so that their next starts
// skip reading them. Nothing is decided on a kept deployment alone: a start from it is written only by
// the one statement that re-checks, as it counts the call, that the deployment's version (bumped by every
// change of its settings) and its PAL and face are still as kept (start-write.ts). When they are not,
// or anything on the way refuses, nothing was written and the start is made again from a fresh read, so
// no refusal and no limit, status, password or origin decision rests on a kept copy either.
// Only deployments whose start needs nothing else are kept: no password or captcha (passing the gate has
// effects: the attempt is counted, a captcha token is single-use), no consent to record, no limit that
// counts calls.
import type { ServiceDeps } from '../../platform/context.js';
import { onePer } from '../../platform/one-per.js';
import { limitsCountCalls } from './availability.js';
import { captchaFor } from './captcha.js';
import type { StartableDeployment } from './repository.js';
import type { Customization, Limits } from './schemas.js';
import type { z } from '@hono/zod-openapi';

const KEEP_MS = 5_000;
/** Past this many, the oldest is dropped (a Map iterates in insertion order). */
const MAX_KEPT = 1_000;

export class StartCache {
  private readonly kept = new Map<string, { row: StartableDeployment; until: number }>();

  constructor(private readonly deps: Pick<ServiceDeps, 'config' | 'clock'>) {}

  get(deploymentId: string): StartableDeployment | undefined {
    const entry = this.kept.get(deploymentId);
    if (!entry) return undefined;
    if (entry.until > this.deps.clock.now().getTime()) return entry.row;
    this.kept.delete(deploymentId);
    return undefined;
  }

  /** Keeps a freshly read deployment when its start needs nothing but the one statement; forgets it otherwise. */
  offer(deploymentId: string, row: StartableDeployment | undefined): void {
    this.kept.delete(deploymentId);
    if (!row || !this.startsInOneStatement(row)) return;
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(deploymentId, { row, until: this.deps.clock.now().getTime() + KEEP_MS });
  }

  forget(deploymentId: string): void {
    this.kept.delete(deploymentId);
  }

  private startsInOneStatement(row: StartableDeployment): boolean {
    const limits = row.limits as Limits;
    const customization = row.customization as z.infer<typeof Customization> | null;
    return (
      row.status === 'active' &&
      row.password_hash === null &&
      !captchaFor(this.deps.config, limits) &&
      !limitsCountCalls(limits) &&
      customization?.consent?.required !== true
    );
  }
}

/** This service's cache (every start of the instance shares it). */
export const startCacheFor = onePer((deps: Pick<ServiceDeps, 'config' | 'clock'>) => new StartCache(deps));
