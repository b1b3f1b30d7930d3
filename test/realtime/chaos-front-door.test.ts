// Chaos: the public front door under floods, on the real service in a process of its own.
// 1. 10,000 conversations nobody joined expire together: the poll settles them in batches, and /healthz
//    and a live room keep answering (before, /healthz failed three times in ~40 s and a reply took 6.7 s).
// 2. 20,000 idle WebSocket upgrades from one address: the address's upgrades past its cap are refused at
//    once, and /healthz and a valid join from 127.0.0.1 are still answered (before, every new request
//    failed for 20 s once the descriptors ran out).
// Thresholds are ratios to /healthz's quiet baseline measured in the same run (or 100 ms, whichever is
// larger); the figures are printed. The scenarios are test/helpers/chaos-scenarios/expiring-conversations.ts
// and idle-upgrades.ts (also run by `npm run bench -- chaos`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { percentile } from '../helpers/chaos.js';
import { onPostgres } from '../helpers/service.js';
import { expiringConversations } from '../helpers/chaos-scenarios/expiring-conversations.js';
import { idleUpgrades } from '../helpers/chaos-scenarios/idle-upgrades.js';

const skip = onPostgres && "the front door's chaos runs once, on the PGlite leg";

describe('chaos: the front door', { skip, timeout: 900_000 }, () => {
  it('10,000 conversations expiring together are settled while /healthz and a live room keep answering', async () => {
    const f = await expiringConversations(10_000).run();
    console.log(`# ${f.summary}`);
    assert.ok(f.createdInTime, 'created before they expire');
    assert.ok(f.settled, 'the conversations were settled within 10 minutes');
    assert.equal(f.sweepFailures, 0, '/healthz never failed');
    const bound = Math.max(100, 10 * percentile(f.quietHealth, 95));
    assert.ok(percentile(f.sweepHealth, 95) < bound, `/healthz p95 during the sweep under ${bound.toFixed(0)} ms`);
    assert.ok(percentile(f.replies, 95) < Math.max(1000, 10 * Math.max(...f.quietReplies)), 'the live room kept answering');
  });

  it('20,000 idle upgrades from one address: past its cap refused at once while /healthz and a valid join get in', async () => {
    const f = await idleUpgrades(20_000).run();
    console.log(`# ${f.summary}`);
    assert.equal(f.started, f.attempts, 'the flood made all its attempts');
    // 16 may wait at once; each is ended by the 10 s join timeout, and 16 more may come.
    assert.ok(
      f.counts.upgraded <= 16 * (Math.ceil(f.floodSeconds / 10) + 2),
      `only the address's share of idle upgrades was taken (${f.counts.upgraded})`,
    );
    // Refused at once either way: a 429 past the address's waiting upgrades, or the socket closed unanswered
    // past its open connections (with the listen backlog no longer overflowing, more reach the second cap).
    assert.ok(
      f.counts.refused + f.counts.closed > f.attempts / 2,
      `the rest were refused at once (${f.counts.refused} with 429, ${f.counts.closed} closed)`,
    );
    assert.equal(f.duringFailures, 0, '/healthz from another address never failed');
    assert.ok(f.duringHealth.length > 0);
    const bound = Math.max(100, 10 * percentile(f.quietHealth, 95));
    assert.ok(percentile(f.duringHealth, 95) < bound * 5, `/healthz p95 during the flood within ${(bound * 5).toFixed(0)} ms`);
    assert.ok(f.afterwards !== null, '/healthz answered after the flood');
  });
});
