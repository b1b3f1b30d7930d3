// The script tag's split: palkit-full.js (src/palkit/cdn-full.ts and what it imports statically) runs the screens
// before a call; the call's parts come later in chunks of their own. Their English strings come with them
// (strings-incall.ts, added when the call's parts are defined), so no module before a call may render one.
// The bundle's css`` templates are minified (scripts/minify-css-literals.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { minifyCss } from '../../../scripts/minify-css-literals.js';
import { incallStrings } from '../../../src/palkit/components/i18n/strings-incall.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Source files a module imports statically (values and side effects; `import type` and import() left out). */
function staticImports(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const match of code.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    staticImports(resolve(dirname(entry), match[1]!.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

describe('script-tag split', () => {
  it("renders none of the call's strings before the call's parts are loaded", () => {
    const beforeCall = [...staticImports(join(root, 'src/palkit/cdn-full.ts'))];
    assert.ok(
      beforeCall.some((f) => f.endsWith('components/screens/preview.ts')),
      'the crawl reaches the screens',
    );
    assert.ok(!beforeCall.some((f) => f.endsWith('components/define-call.ts')), "the call's parts are not among them");
    assert.ok(!beforeCall.some((f) => /end-confirm/.test(f)), '"End the call?" (shown only during a call) is not among them');
    const keys = Object.keys(incallStrings);
    for (const file of beforeCall) {
      const code = readFileSync(file, 'utf8');
      const used = keys.filter((key) => code.includes(`'${key}'`) || code.includes(`\`${key}\``));
      assert.deepEqual(used, [], `${relative(root, file)} renders strings that arrive with the call's parts`);
    }
  });

  it('minifies the css`` templates without changing what they mean', () => {
    assert.equal(
      minifyCss(`
      /* the launcher */
      :host { display: block; }
      a :hover , b > c{ color : red ; margin: calc(1px + 2px) }
      .x::after { content: "  a ; /* b */ " ; font: 12px/1 'A  B', serif; }
    `),
      `:host{display:block}a :hover,b>c{color :red;margin:calc(1px + 2px)}.x::after{content:"  a ; /* b */ ";font:12px/1 'A  B',serif}`,
    );
  });
});
