// The custom-elements manifest says what the elements really are, and what is generated from it is up to
// date. The manifest (cem analyze over the elements' JSDoc and decorators) is where the React and Vue
// wrappers and the script tag's lists come from (scripts/surface.ts), so a wrong entry there is a wrong
// prop, listener or forwarded attribute everywhere: every registered tag is in it with its class, every
// element in it is registered, every event it lists is a palkit event class that some code dispatches,
// every attribute is one the element observes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import { elementsOf, readManifest, type ElementSurface } from '../../../scripts/surface/manifest.js';
import { renderAll } from '../../../scripts/surface/render.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The manifest as `npm run build` makes it (the build script's own cem command, into a scratch folder). */
function analyze(): ElementSurface[] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const command = /cem analyze [^&]+/.exec(scripts.surface!)?.[0];
  assert.ok(command, 'npm run surface runs cem analyze');
  // cem joins --outdir to the working directory, so the scratch folder is given relative to it.
  const out = mkdtempSync(join(root, 'node_modules/.cache-surface-'));
  try {
    const args = command
      .trim()
      .split(/\s+/)
      .slice(1)
      .map((arg) => arg.replace(/^'(.*)'$/, '$1'));
    args[args.indexOf('--outdir') + 1] = relative(root, out);
    const result = spawnSync(process.execPath, [join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'), ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    return elementsOf(readManifest(join(out, 'custom-elements.json')));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the custom-elements manifest', { timeout: 180_000 }, () => {
  let elements: ElementSurface[];
  let registry: Record<string, CustomElementConstructor & { observedAttributes?: string[] }>;
  let events: Record<string, unknown>;

  before(async () => {
    elements = analyze();
    // Lit's Node build brings a DOM shim, so the registry and the event classes load as they are.
    registry = (await import('../../../src/palkit/components/define.js')).elements;
    events = await import('../../../src/palkit/components/events/index.js');
  });

  it('lists every registered element with its tag and class, and nothing unregistered', () => {
    const listed = Object.fromEntries(elements.map((e) => [e.tag, e.className]));
    const registered = Object.fromEntries(Object.entries(registry).map(([tag, ctor]) => [tag, ctor.name]));
    assert.deepEqual(listed, registered);
  });

  it('lists only pal- events, each a palkit event class of that name that some code dispatches', () => {
    const code = sources(join(root, 'src/palkit'))
      .filter((file) => !file.includes('/components/events/'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const wrong: string[] = [];
    for (const element of elements) {
      for (const event of element.events) {
        const type = (events[event.type] as { type?: string } | undefined)?.type;
        if (!event.name.startsWith('pal-')) wrong.push(`${element.tag}: ${event.name} is not prefixed pal-`);
        if (type !== event.name)
          wrong.push(`${element.tag}: ${event.name} is typed ${event.type}, whose name is ${type ?? '(not an exported event class)'}`);
        if (!code.includes(`new ${event.type}(`)) wrong.push(`${element.tag}: nothing dispatches ${event.type}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('lists every palkit event on some element', () => {
    const declared = new Set(elements.flatMap((e) => e.events.map((x) => x.type)));
    const classes = Object.entries(events)
      .filter(([, value]) => typeof value === 'function' && typeof (value as { type?: unknown }).type === 'string')
      .map(([name]) => name);
    assert.ok(classes.length >= 19, classes.join(', '));
    assert.deepEqual(
      classes.filter((name) => !declared.has(name)),
      [],
    );
  });

  it('lists as attributes only what the element observes', () => {
    const wrong = elements.flatMap((e) =>
      e.attributes.filter((a) => !registry[e.tag]!.observedAttributes?.includes(a.name)).map((a) => `${e.tag} ${a.name}`),
    );
    assert.deepEqual(wrong, []);
    assert.ok(
      elements.find((e) => e.tag === 'pal-widget')!.attributes.some((a) => a.name === 'deployment-id'),
      'inherited attributes are listed',
    );
  });

  it('gives the checked-in generated files (script-tag lists, React, Vue) as they are: run `npm run surface` when this fails', () => {
    for (const [file, content] of renderAll(elements)) assert.equal(readFileSync(join(root, file), 'utf8'), content, `${file} is stale`);
  });
});
