// The face-look bars against the frames they are calibrated on (issue 51, point 7): replies made on purpose
// from the shared portrait (test/helpers/face-look/calibration.ts), each good or bad for named measures, seen
// by the real FaceMesh and face-description models; each must be judged as it was made. Real-time tier: the
// models take about a second a frame on this machine's WebAssembly backend under load (98 frames here).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { cosine } from '../helpers/face-look/image.js';
import { lookAtMade, madeReplies, OTHER_FACES, type MadeReply } from '../helpers/face-look/calibration.js';
import { readImage } from '../helpers/face-look/files.js';
import { see, type Sight } from '../helpers/face-look/see.js';
import { THRESHOLDS, describeLook, judgeLook } from '../helpers/face-look/verdict.js';
import { PORTRAIT } from '../helpers/face-clips.js';

describe('the face-look bars on frames made on purpose', { timeout: 1_800_000 }, () => {
  let rest: Sight;
  let replies: MadeReply[];
  before(async () => {
    const image = readImage(PORTRAIT);
    rest = await see(image);
    assert.ok(rest.mesh && rest.embedding, 'FaceMesh finds the portrait');
    replies = madeReplies(image, rest.mesh);
  });

  it('judges every made reply as it was made', async () => {
    const wrong: string[] = [];
    for (const reply of replies) {
      const figures = await lookAtMade(reply, see);
      const verdict = judgeLook(figures);
      console.log(`# ${reply.name}: judged ${JSON.stringify(verdict)}\n#   ${describeLook(figures).join('\n#   ')}`);
      for (const [measure, good] of Object.entries(reply.good))
        if (verdict[measure as keyof typeof verdict] !== good)
          wrong.push(`${reply.name}: ${measure} judged ${verdict[measure as keyof typeof verdict]}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('tells another person from the portrait, and a blurred portrait for the same person', async () => {
    for (const other of OTHER_FACES) {
      const seen = await see(readImage(other.file, other.filter));
      assert.ok(seen.embedding, `${other.name}: a face found`);
      const similarity = cosine(seen.embedding, rest.embedding!);
      console.log(`# (e) ${other.name}: similarity ${similarity.toFixed(3)}`);
      assert.equal(similarity >= THRESHOLDS.same, other.samePerson, `${other.name}: ${similarity}`);
    }
  });
});
