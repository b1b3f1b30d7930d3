// The real-time tier's figures: scripts/results.mjs reads the `palkit-figure` lines a file printed (from
// node:test's TAP or a browser's console, with whatever prefix), and scripts/report.mjs sets each beside the
// run before, with its change and the bars missed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script of the repository, without types
import { figuresIn } from '../../../scripts/results.mjs';
// @ts-expect-error: a plain .mjs script of the repository, without types
import { report } from '../../../scripts/report.mjs';

describe('real-time results', () => {
  it('reads the figures a run printed, the last of each name', () => {
    const output = [
      '# palkit-figure {"name":"chromium, Ada, quiet: lag","value":12,"unit":"ms","bar":"±40","met":true}',
      ' 🌐 Browser logs:',
      '      palkit-figure {"name":"firefox: frames presented","value":80,"unit":"%","better":"higher"}',
      'palkit-figure {"name":"chromium, Ada, quiet: lag","value":14,"unit":"ms","bar":"±40","met":true}',
      'palkit-figure {"name":"cut short","val',
      'ok 1 - something',
    ].join('\n');
    assert.deepEqual(
      figuresIn(output).map((f: { name: string; value: number }) => [f.name, f.value]),
      [
        ['chromium, Ada, quiet: lag', 14],
        ['firefox: frames presented', 80],
      ],
    );
  });

  it('compares with the run before and lists the bars missed', () => {
    const text: string = report([
      {
        file: 'test/realtime/e2e/lip-sync-webkit.test.ts',
        finished: '2026-11-27T18:00:00.000Z',
        outcome: 'FAILED',
        figures: [
          { name: 'webkit, Ada, loaded: lag', value: 55, unit: 'ms', bar: '±40', met: false },
          { name: 'webkit, Ada, loaded: first motion, mean', value: 30, unit: 'ms', better: 'lower', bar: '≤ 50', met: true },
        ],
        previous: {
          finished: '2026-11-26T18:00:00.000Z',
          figures: [{ name: 'webkit, Ada, loaded: first motion, mean', value: 40, unit: 'ms' }],
        },
      },
    ]);
    assert.match(text, /first motion, mean\s+30 ms\s+40 ms\s+-10 \(-25 %\) better/);
    assert.match(
      text,
      /bars missed in the last runs \(1\):\n\s+test\/realtime\/e2e\/lip-sync-webkit\.test\.ts: webkit, Ada, loaded: lag 55 ms \(bar ±40\)/,
    );
  });
});
