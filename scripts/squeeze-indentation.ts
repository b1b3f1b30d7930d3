// A vite plugin for the script-tag bundles: drops the indentation after each line break in our own modules.
// What it changes is the text of template literals (Lit's html`` templates, as written, ship their
// indentation to every visitor: ~90 bytes gzip of the pre-call bundle); a line break stays, so whitespace
// between elements still collapses to one space as before, and in code indentation means nothing.
import type { Plugin } from 'vite';

export function squeezeIndentation(): Plugin {
  return {
    name: 'palkit:squeeze-indentation',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id)) return null;
      return { code: code.replace(/\n[ \t]+/g, '\n'), map: null };
    },
  };
}
