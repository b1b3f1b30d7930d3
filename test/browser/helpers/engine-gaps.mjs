// Web-test-runner plugin: skips, in one engine only, the browser tests listed in test/known-engine-gaps.json
// (product defects that engine shows and that are not fixed yet; each entry says why). Every test file gets
// an import of a tiny module that registers a root beforeEach: a listed test is marked skipped in that engine
// (so it shows in the skipped count), runs everywhere else, and a gap whose test no longer exists fails the run.
import { readFileSync } from 'node:fs';

const GAPS = new URL('../../known-engine-gaps.json', import.meta.url);
const MODULE = '/__palkit-engine-gaps.js';

export function loadGaps(suite) {
  const all = JSON.parse(readFileSync(GAPS, 'utf8')).gaps;
  return all.filter((g) => g.suite === suite);
}

// In the page: which engine this is, from the user agent (MiniBrowser's has no Chrome/ and no Firefox/).
const runtime = (gaps) => `
const ua = navigator.userAgent;
const engine = /Firefox\\//.test(ua) ? 'firefox' : /Chrome\\//.test(ua) ? 'chromium' : 'webkit';
const file = new URL(import.meta.url).searchParams.get('file');
const gaps = ${JSON.stringify(gaps)}.filter((g) => g.engine === engine && g.file === file);
if (gaps.length > 0) {
  beforeEach(function () {
    const title = this.currentTest.fullTitle();
    const gap = gaps.find((g) => g.test === title);
    if (gap) {
      console.warn('[known engine gap] skipped in ' + engine + ': ' + title + ' — ' + gap.reason);
      this.skip();
    }
  });
}
`;

export function engineGaps() {
  return {
    name: 'palkit-engine-gaps',
    serve(context) {
      if (context.path === MODULE) return { body: runtime(loadGaps('browser')), type: 'js' };
      return undefined;
    },
    transform(context) {
      const match = /^\/(test\/browser\/.+\.test\.ts)$/.exec(context.path);
      if (!match || typeof context.body !== 'string') return undefined;
      return { body: `import '${MODULE}?file=${encodeURIComponent(match[1])}';\n${context.body}` };
    },
  };
}
