// The import graph of the sources, read with the TypeScript parser (no build, no type check): for each
// file under a folder, what it imports, both relative files (resolved to the .ts file on disk) and bare
// specifiers (packages, node: builtins). Static imports, re-exports and import() calls; `import type`
// and `export type` are marked, since they vanish at run time.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** The specifier as written. */
  specifier: string;
  /** The .ts file a relative specifier names (absolute), or undefined for a package. */
  file: string | undefined;
  typeOnly: boolean;
  dynamic: boolean;
}

/** Every .ts/.tsx file under `dir`, skipping build outputs and node_modules. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'dist' || entry === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/** The .ts file a relative specifier names, trying the ways the sources write them (`./x.js`, `./dir/index.js`). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|ts|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

export function importsOf(file: string): ImportEdge[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic: boolean) =>
    edges.push({ specifier, file: specifier.startsWith('.') ? resolveRelative(file, specifier) : undefined, typeOnly, dynamic });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const allTypes =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier.text, allTypes, false);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The package a bare specifier names: `@scope/name` or `name` (node: builtins keep their prefix). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Paths relative to `root`, with forward slashes (stable across systems, for messages and allow-lists). */
export function shortPath(root: string, file: string): string {
  return relative(root, file).split('\\').join('/');
}

/** Files under `dir` and, for each, the source files it imports (type-only and dynamic imports included). */
export function importGraph(dir: string): Map<string, string[]> {
  const files = sourceFiles(dir);
  return new Map(files.map((file) => [file, [...new Set(importsOf(file).flatMap((edge) => (edge.file ? [edge.file] : [])))]]));
}

/** The strongly connected components (Tarjan): a node's component id; cycles stay inside one component. */
function components(graph: Map<string, string[]>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let counter = 0;
  let id = 0;
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (!component.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      for (let member = stack.pop()!; ; member = stack.pop()!) {
        component.set(member, id);
        if (member === node) break;
      }
      id++;
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return component;
}

/**
 * Every elementary cycle of the graph, each found once, starting at its first node in sorted order (a
 * search from each node over the later nodes of its own component, so acyclic parts cost nothing).
 * Stops at `limit` cycles.
 */
export function importCycles(graph: Map<string, string[]>, limit = 1000): string[][] {
  const nodes = [...graph.keys()].sort();
  const order = new Map(nodes.map((node, i) => [node, i]));
  const component = components(graph);
  const cycles: string[][] = [];
  for (const start of nodes) {
    const first = order.get(start)!;
    const own = component.get(start);
    const path = [start];
    const onPath = new Set(path);
    const walk = (node: string): void => {
      for (const next of graph.get(node) ?? []) {
        if (cycles.length >= limit) return;
        const rank = order.get(next);
        if (rank === undefined || rank < first || component.get(next) !== own) continue;
        if (next === start) cycles.push([...path]);
        else if (!onPath.has(next)) {
          path.push(next);
          onPath.add(next);
          walk(next);
          path.pop();
          onPath.delete(next);
        }
      }
    };
    walk(start);
  }
  return cycles;
}
