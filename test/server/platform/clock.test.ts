// The service's clock and the tests' ManualClock (src/server/platform/time.ts, test/helpers/clock.ts): timers run
// in order of their time as advance() passes it, intervals repeat, cleared timers never run, and a sleep ends
// early with the abort signal's reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemClock } from '../../../src/server/platform/time.js';
import { ManualClock } from '../../helpers/clock.js';

describe('ManualClock', () => {
  it('runs the timers due on the way, in time order, at their own time, and no others', async () => {
    const clock = new ManualClock(1_000);
    const ran: Array<[string, number]> = [];
    clock.setTimeout(() => ran.push(['b', clock.now().getTime()]), 200);
    clock.setTimeout(() => ran.push(['a', clock.now().getTime()]), 100);
    clock.setTimeout(() => ran.push(['late', clock.now().getTime()]), 301);
    const cleared = clock.setTimeout(() => ran.push(['cleared', clock.now().getTime()]), 50);
    clock.clearTimeout(cleared);
    await clock.advance(300);
    assert.deepEqual(ran, [
      ['a', 1_100],
      ['b', 1_200],
    ]);
    assert.equal(clock.now().getTime(), 1_300);
    assert.equal(clock.timers, 1);
  });

  it('runs a timer a callback starts when it falls due within the same advance, and repeats intervals', async () => {
    const clock = new ManualClock(0);
    const ran: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => ran.push(clock.now().getTime()), 50), 100);
    const ticks: number[] = [];
    const every = clock.setInterval(() => ticks.push(clock.now().getTime()), 40);
    await clock.advance(130);
    assert.deepEqual(ran, []);
    await clock.advance(20);
    assert.deepEqual(ran, [150]);
    assert.deepEqual(ticks, [40, 80, 120]);
    clock.clearTimeout(every);
    await clock.advance(100);
    assert.deepEqual(ticks, [40, 80, 120]);
  });

  it('lets the promise work a timer starts settle before the next timer runs', async () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setTimeout(
      () =>
        void Promise.resolve()
          .then(() => Promise.resolve())
          .then(() => seen.push('first settled')),
      10,
    );
    clock.setTimeout(() => seen.push('second'), 20);
    await clock.advance(20);
    assert.deepEqual(seen, ['first settled', 'second']);
  });

  it('sleeps until advanced, and an aborted sleep rejects with the reason at once', async () => {
    const clock = new ManualClock(0);
    let woke = false;
    const sleeping = clock.sleep(1_000).then(() => (woke = true));
    await clock.advance(999);
    assert.equal(woke, false);
    await clock.advance(1);
    await sleeping;
    assert.equal(woke, true);

    const abort = new AbortController();
    const cut = clock.sleep(1_000, abort.signal);
    abort.abort(new Error('stop'));
    await assert.rejects(cut, /stop/);
    assert.equal(clock.timers, 0, 'the aborted sleep left no timer behind');
    await assert.rejects(clock.sleep(5, AbortSignal.abort()), { name: 'AbortError' });
  });
});

describe('systemClock.sleep', () => {
  it("rejects with the signal's reason when aborted, and with an AbortError for an aborted signal", async () => {
    const abort = new AbortController();
    const cut = systemClock.sleep(60_000, abort.signal);
    abort.abort(new Error('closing'));
    await assert.rejects(cut, /closing/);
    await assert.rejects(systemClock.sleep(60_000, AbortSignal.abort()), { name: 'AbortError' });
  });
});
