// Settings of every `cem analyze` run (npm run build, storybook, build-storybook; passed with --config).
// The analyzer writes its output path into the cwd's package.json (`customElements`) unless told not to,
// and a command-line flag cannot say false: so the Storybook runs (outdir .storybook/generated) used to
// rewrite the tracked package.json. The browser package's own package.json names its manifest by hand.
//
// The manifest is what the React and Vue wrappers and the script tag's lists are generated from
// (scripts/surface.ts), so it must say what the elements really do; the plugin below corrects the two
// things the analyzer gets wrong about this code base.
export default {
  packagejson: false,
  plugins: [eventNamesFromClasses(), definitionsFromTagNames()],
};

/**
 * Names events by their class. The analyzer names an event `dispatchEvent(new PalStartEvent(detail))`
 * after the constructor's first argument (`detail`), or not at all; every palkit event class says its
 * name in `static readonly type`. The JSDoc `@fires {PalStartEvent} pal-start - …` entry and the
 * dispatch found in the code then merge into one event with the JSDoc's words and the class's type.
 */
function eventNamesFromClasses() {
  /** Event class name → event name. */
  const names = new Map();
  return {
    name: 'palkit-event-names',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      for (const member of node.members) {
        const isStatic = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (
          ts.isPropertyDeclaration(member) &&
          isStatic &&
          member.name.getText() === 'type' &&
          member.initializer &&
          ts.isStringLiteral(member.initializer)
        )
          names.set(node.name.text, member.initializer.text);
      }
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const declaration of mod.declarations ?? []) {
          if (!declaration.events) continue;
          const merged = new Map();
          for (const event of declaration.events) {
            const name = names.get(event.type?.text) ?? event.name;
            const seen = merged.get(name);
            if (!seen) {
              merged.set(name, { ...event, name });
              continue;
            }
            if (!seen.description && event.description) seen.description = event.description;
            // Declared on this class (JSDoc or a dispatch of its own) wins over inherited.
            if (!event.inheritedFrom) delete seen.inheritedFrom;
          }
          declaration.events = [...merged.values()];
        }
      }
    },
  };
}

/**
 * One `custom-element-definition` export per tag, from each class's `@tagname`. The analyzer reads the
 * registration loops (`customElements.define(name, ctor)` over a map) as one element called `name`.
 */
function definitionsFromTagNames() {
  return {
    name: 'palkit-definitions',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        mod.exports = (mod.exports ?? []).filter((e) => e.kind !== 'custom-element-definition');
        for (const declaration of mod.declarations ?? []) {
          if (declaration.customElement && declaration.tagName)
            mod.exports.push({
              kind: 'custom-element-definition',
              name: declaration.tagName,
              declaration: { name: declaration.name, module: mod.path },
            });
        }
      }
    },
  };
}
