// Web-test-runner plugin: React and Vue ship CommonJS or expect a bundler's `process.env`, so the browser
// tests get them as one esbuild-made ES module (one React instance shared by react, react-dom and the
// JSX runtime), behind small per-specifier shims with the packages' named exports.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const prefix = '/__bundled-deps/';
const specifiers = { react: 'React', 'react/jsx-runtime': 'JSXRuntime', 'react-dom/client': 'ReactDOMClient', vue: 'Vue' };
let vendor;

/** What React and Vue read from a bundler: their development builds, Vue's options API on. */
export const DEPS_DEFINE = {
  'process.env.NODE_ENV': '"development"',
  __VUE_OPTIONS_API__: 'true',
  __VUE_PROD_DEVTOOLS__: 'false',
  __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
};

async function vendorBundle() {
  vendor ??= build({
    stdin: {
      contents: Object.entries(specifiers)
        .map(([spec, name]) => `export * as ${name} from '${spec}';`)
        .join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
    define: DEPS_DEFINE,
  }).then((result) => result.outputFiles[0].text);
  return vendor;
}

function shim(spec) {
  const name = specifiers[spec];
  // Listed in a child process: React's development build patches the console of whoever loads it.
  const listed = execFileSync(process.execPath, ['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(spec)}))))`], {
    encoding: 'utf8',
  });
  const keys = JSON.parse(listed).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default');
  return `import { ${name} } from '${prefix}vendor.js';\nexport default ${name}.default ?? ${name};\nexport const { ${keys.join(', ')} } = ${name};\n`;
}

export function bundledDeps() {
  return {
    name: 'bundled-deps',
    resolveImport({ source }) {
      if (source in specifiers) return `${prefix}${encodeURIComponent(source)}.js`;
      return undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(prefix)) return undefined;
      const file = decodeURIComponent(context.path.slice(prefix.length, -'.js'.length));
      if (file === 'vendor') return { body: await vendorBundle(), type: 'js' };
      if (file in specifiers) return { body: shim(file), type: 'js' };
      return undefined;
    },
  };
}
