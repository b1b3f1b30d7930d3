// The parts of custom-elements.json the generated wrappers read: each registered element with its tag,
// class, module, attributes, events, parts and public methods.
import { readFileSync } from 'node:fs';

interface Named {
  name: string;
  description?: string;
  type?: { text: string };
}
interface Member extends Named {
  kind: 'field' | 'method';
  privacy?: string;
  static?: boolean;
}
interface Attribute extends Named {
  fieldName?: string;
}
interface Declaration {
  kind: string;
  name: string;
  customElement?: boolean;
  tagName?: string;
  summary?: string;
  attributes?: Attribute[];
  events?: Partial<Named>[];
  cssParts?: Named[];
  members?: Member[];
}
export interface Manifest {
  modules: { path: string; declarations?: Declaration[] }[];
}

export interface ElementSurface {
  tag: string;
  className: string;
  /** Source module, relative to the repository root (src/palkit/components/…/x.ts). */
  module: string;
  summary: string;
  attributes: { name: string; field: string | undefined }[];
  events: { name: string; type: string }[];
  parts: string[];
  methods: string[];
  /** Every public member (fields and methods). */
  members: string[];
}

export const readManifest = (path: string): Manifest => JSON.parse(readFileSync(path, 'utf8')) as Manifest;

/** Every element with a tag, sorted by tag. Throws where the manifest cannot type an event. */
export function elementsOf(manifest: Manifest): ElementSurface[] {
  const found: ElementSurface[] = [];
  for (const mod of manifest.modules) {
    for (const d of mod.declarations ?? []) {
      if (!d.customElement || !d.tagName) continue;
      found.push({
        tag: d.tagName,
        className: d.name,
        module: mod.path,
        summary: (d.summary ?? '')
          .split(/(?<=\.)\s/)[0]!
          .replace(/\s+/g, ' ')
          .trim(),
        attributes: (d.attributes ?? []).map((a) => ({ name: a.name, field: a.fieldName })),
        events: (d.events ?? []).map((e) => {
          if (!e.name || !e.type || !/^[A-Z]\w*$/.test(e.type.text))
            throw new Error(
              `${d.tagName}: event ${e.name ?? '(unnamed)'} has no event class (write @fires {PalSomethingEvent} pal-something)`,
            );
          return { name: e.name, type: e.type.text };
        }),
        parts: (d.cssParts ?? []).map((p) => p.name),
        methods: (d.members ?? []).filter((m) => m.kind === 'method' && !m.privacy && !m.static).map((m) => m.name),
        members: (d.members ?? []).filter((m) => !m.privacy && !m.static).map((m) => m.name),
      });
    }
  }
  return found.sort((a, b) => a.tag.localeCompare(b.tag));
}
