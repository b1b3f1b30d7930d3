// The service's one rule for sentences: every language's stops, abbreviations and numbers kept whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitSentences } from '../../../../src/server/platform/text/sentences.js';
import { chunkText } from '../../../../src/server/resources/documents/chunk.js';

describe('sentences', () => {
  it('splits Japanese and Chinese without spaces, and keeps abbreviations, initials and decimals inside', () => {
    assert.deepEqual(splitSentences('東京駅から徒歩5分です。営業時間は9時から17時です！'), [
      '東京駅から徒歩5分です。',
      '営業時間は9時から17時です！',
    ]);
    assert.deepEqual(splitSentences('我们周一到周五营业。周末休息。'), ['我们周一到周五营业。', '周末休息。']);
    assert.deepEqual(splitSentences('It costs approx. 2.5 € a day, e.g. on weekdays. Ask Dr. Weber! Really?'), [
      'It costs approx. 2.5 € a day, e.g. on weekdays.',
      'Ask Dr. Weber!',
      'Really?',
    ]);
    assert.deepEqual(splitSentences('Das dauert z.B. 3 Tage. Danach ist es da.'), ['Das dauert z.B. 3 Tage.', 'Danach ist es da.']);
    assert.deepEqual(splitSentences('  '), []);
  });

  it('cuts a long Japanese paragraph of a document at its sentences, not in the middle of one', () => {
    const sentence = 'この自転車は二人の子どもを乗せて坂道を楽に上れるように作られています。';
    const chunks = chunkText(sentence.repeat(12), { size: 200, overlap: 0 });
    assert.ok(chunks.length > 1);
    for (const chunk of chunks)
      assert.match(chunk.replace(/\s/g, ''), /^(この自転車は二人の子どもを乗せて坂道を楽に上れるように作られています。)+$/u, chunk);
  });
});
