// A vite plugin for the browser bundles: minifies the CSS of Lit's css`` templates (comments out, whitespace
// collapsed, none around braces, semicolons, commas and child combinators, none after a colon; `+` and `-`
// keep theirs, which calc() needs). Quoted strings are kept as written; a template with
// ${} expressions is left alone. Lit ships the template text as it is written, so this is what a
// visitor would otherwise download.
import type { Plugin } from 'vite';

const TEMPLATE = /(?<![\w$.])css`((?:[^`\\$]|\\.|\$(?!\{))*)`/g;

const STRING = /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/;
const STRING_OR_COMMENT = /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\/\*[\s\S]*?\*\/)/;

export function minifyCss(text: string): string {
  // Comments out first (a comment may hold quotes), then the text between quoted strings is squeezed.
  const uncommented = text
    .split(STRING_OR_COMMENT)
    .map((part, i) => (i % 2 === 1 && part.startsWith('/*') ? ' ' : part))
    .join('');
  return uncommented
    .split(STRING)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,>]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/;}/g, '}'),
    )
    .join('')
    .trim();
}

export function minifyCssLiterals(): Plugin {
  return {
    name: 'palkit:minify-css-literals',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || !code.includes('css`')) return null;
      return { code: code.replace(TEMPLATE, (_all, text: string) => `css\`${minifyCss(text)}\``), map: null };
    },
  };
}
