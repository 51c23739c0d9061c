import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The house rules, kept by a test: the server's production files (and the contract they share with the web app)
 * import each other without cycles, AI engines take data in and give text out (no database, no HTTP, no
 * resources), job workers know no transport, and the database schema knows no resource. Tests may import
 * anything; they are not part of the graph.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const serverSrc = here;
const contractDir = path.resolve(here, '../../contract');
const repoRoot = path.resolve(here, '../..');

const isProductionTs = (file: string) =>
  file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts') && !file.split(path.sep).includes('test-support');

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else if (isProductionTs(full)) out.push(full);
  }
  return out;
}

/** Every module specifier a file names: static imports and exports (type-only too), dynamic import(), require(). */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression;
      if (ts.isStringLiteral(e)) out.push(e.text);
    } else if (ts.isCallExpression(node)) {
      const [arg] = node.arguments;
      const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((dynamic || required) && arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A relative specifier's file, written with its `.js` ending as NodeNext wants; packages are outside the graph. */
function resolve(from: string, spec: string, known: Set<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, path.join(base, 'index.ts'), base];
  return candidates.find((c) => known.has(c));
}

function buildGraph(): Map<string, string[]> {
  const files = [...listFiles(serverSrc), ...listFiles(contractDir)];
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of specifiers(file)) {
      const target = resolve(file, spec, known);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Each strongly connected component of more than one file (or a file importing itself), as one cycle through it. */
function findCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph does not exhaust the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component);
      }
    }
  }
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** One concrete cycle inside a component, shortest from its first file (breadth-first), to print in a failure. */
function cycleThrough(graph: Map<string, string[]>, members: Set<string>): string[] {
  const start = [...members].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const pathBack = [node];
        while (pathBack[0] !== start) pathBack.unshift(previous.get(pathBack[0]!)!);
        return [...pathBack, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

const rel = (file: string) => path.relative(repoRoot, file).split(path.sep).join('/');
const graph = buildGraph();

/** The imports from files under `fromDir` (or that file) into files under any of `toDirs`, as "from -> to" lines. */
function crossings(from: string, toDirs: string[]): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const f = rel(file);
    if (!(f === from || f.startsWith(`${from}/`))) continue;
    for (const target of targets) {
      const t = rel(target);
      if (toDirs.some((d) => t.startsWith(`${d}/`))) out.push(`${f} -> ${t}`);
    }
  }
  return out;
}

describe('import graph', () => {
  it('reads the files it guards', () => {
    // A broken walk (wrong root, parse failure) would make every rule below pass vacuously.
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join(serverSrc, 'app.ts'))?.length).toBeGreaterThan(5);
  });

  it('has no import cycles among production files', () => {
    const cycles = findCycles(graph).map((c) => c.map(rel).join(' -> '));
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('keeps the AI engines free of the database, the transport and the resources', () => {
    expect(crossings('server/src/ai', ['server/src/db', 'server/src/http', 'server/src/modules'])).toEqual([]);
  });

  it('keeps the job workers free of the transport', () => {
    expect(crossings('server/src/jobs', ['server/src/http'])).toEqual([]);
  });

  it('keeps the database schema free of the resources', () => {
    expect(crossings('server/src/db/schema.ts', ['server/src/modules'])).toEqual([]);
  });
});
