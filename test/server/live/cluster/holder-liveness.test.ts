// Whether a room's holder answers (live/cluster/holder-liveness.ts), on the test's clock: asked at a join
// unless heard from just now, judged dead when a ping goes unanswered for HOLDER_ANSWER_MS while this
// instance's channel is up, and never judged while it is down.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOLDER_ANSWER_MS, HOLDER_QUIET_MS, HolderLiveness } from '../../../../src/server/live/cluster/holder-liveness.js';
import { ManualClock } from '../../../helpers/clock.js';

function liveness() {
  const clock = new ManualClock();
  const pinged: string[] = [];
  let ready = true;
  const l = new HolderLiveness(
    (instance) => pinged.push(instance),
    () => ready,
    clock,
  );
  return { clock, pinged, l, setReady: (r: boolean) => (ready = r) };
}

describe('holder liveness', () => {
  it('a holder heard from just now is alive at once; a quiet one is pinged and alive when it answers', async () => {
    const { clock, pinged, l } = liveness();
    l.check(['i_a']); // watched: pinged once quiet
    l.heard('i_a');
    assert.equal(await l.alive('i_a'), true);
    assert.deepEqual(pinged, ['i_a']);
    await clock.advance(HOLDER_QUIET_MS);
    const asking = l.alive('i_a');
    assert.deepEqual(pinged, ['i_a', 'i_a'], 'quiet a moment: asked');
    await clock.advance(100);
    l.heard('i_a');
    assert.equal(await asking, true);
  });

  it('a holder that does not answer within HOLDER_ANSWER_MS is dead, and answered dead at once afterwards', async () => {
    const { clock, pinged, l } = liveness();
    let answer: boolean | undefined;
    void l.alive('i_dead').then((a) => (answer = a));
    await clock.advance(HOLDER_ANSWER_MS - 1);
    assert.equal(answer, undefined, 'still waiting for its answer');
    await clock.advance(1);
    assert.equal(answer, false);
    assert.equal(await l.alive('i_dead'), false, 'no second wait');
    assert.deepEqual(pinged, ['i_dead']);
    // It comes back (it was only slow): heard from, it is alive again.
    l.heard('i_dead');
    assert.equal(await l.alive('i_dead'), true);
  });

  it('the watch pings quiet holders and names each one that stays silent once', async () => {
    const { clock, pinged, l } = liveness();
    assert.deepEqual(l.check(['i_a', 'i_b']), []);
    assert.deepEqual(pinged, ['i_a', 'i_b']);
    await clock.advance(300);
    l.heard('i_b');
    assert.deepEqual(l.check(['i_a', 'i_b']), [], 'within the answer time');
    await clock.advance(HOLDER_ANSWER_MS);
    assert.deepEqual(l.check(['i_a', 'i_b']), ['i_a'], 'B answered; A did not');
    assert.deepEqual(l.check(['i_a']), [], 'named once');
  });

  it("a holder found dead by a join's wait is named to the watch too, once", async () => {
    const { clock, l } = liveness();
    l.check(['i_a']);
    l.heard('i_a');
    await clock.advance(HOLDER_QUIET_MS);
    const asking = l.alive('i_a'); // a join's question, on the same ping as the watch's next round
    await clock.advance(HOLDER_ANSWER_MS);
    assert.equal(await asking, false);
    assert.deepEqual(l.check(['i_a']), ['i_a'], 'the participants relayed to it are told to join again');
    assert.deepEqual(l.check(['i_a']), []);
  });

  it("judges nobody while this instance's own channel is down: a holder is taken at its heartbeat's word", async () => {
    const { clock, l, setReady, pinged } = liveness();
    const asking = l.alive('i_a');
    setReady(false);
    await clock.advance(HOLDER_ANSWER_MS);
    assert.equal(await asking, true, 'not judged dead: nothing could be heard');
    assert.equal(await l.alive('i_a'), true, 'not even asked');
    assert.deepEqual(l.check(['i_a']), []);
    assert.equal(pinged.length, 1);
    setReady(true);
    assert.deepEqual(l.check(['i_a']), [], 'pinged again first');
    assert.equal(pinged.length, 2);
    await clock.advance(HOLDER_ANSWER_MS);
    assert.deepEqual(l.check(['i_a']), ['i_a']);
  });
});
