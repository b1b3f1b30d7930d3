// The one backoff (job retries, database reconnects, recording copies, the password guard's delay).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs } from '../../../src/server/platform/backoff.js';

describe('backoff', () => {
  it('doubles from the base after each failure up to the cap', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffMs(attempt, { baseMs: 30_000, maxMs: 6 * 3600_000 }));
    assert.deepEqual(waits, [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000]);
    assert.equal(backoffMs(40, { baseMs: 30_000, maxMs: 6 * 3600_000 }), 6 * 3600_000);
    assert.equal(backoffMs(0, { baseMs: 50, maxMs: 1000 }), 50, 'no failure yet waits the base');
  });

  it('spreads a jittered wait over its upper half', () => {
    assert.equal(
      backoffMs(3, { baseMs: 250, maxMs: 10_000, jitter: true }, () => 0),
      500,
    );
    assert.equal(
      backoffMs(3, { baseMs: 250, maxMs: 10_000, jitter: true }, () => 0.999999),
      1000,
    );
  });
});
