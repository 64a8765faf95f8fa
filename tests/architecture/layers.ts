/**
 * The layer rule as a function of a source tree (docs/architecture.md §2.1):
 * every import of main.ts and src/, checked for pointing down, for reaching
 * another layer only through its mod.ts (or another of its ENTRIES), and for cycles — between files of
 * different layers or of one. layers_test.ts runs it on the repository and
 * on fixtures that break each rule.
 */
import { dirname, join, relative, resolve } from "node:path";

/** What each layer may import, besides itself. */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  base: [],
  contracts: ["base"],
  syntax: ["base"],
  semantics: ["base", "syntax"],
  docs: ["base", "contracts"],
  facts: ["base", "contracts", "syntax", "semantics"],
  repo: ["base", "contracts", "syntax", "semantics", "docs"],
  backend: ["base", "syntax", "semantics"],
  mcp: ["base", "contracts", "facts", "docs", "repo"],
  lsp: ["base", "contracts", "syntax", "semantics", "facts"],
  cli: ["base", "contracts", "syntax", "semantics", "facts", "docs", "repo", "backend", "lsp"],
  main: ["base", "mcp"],
};

/**
 * The files through which a layer may be reached: its mod.ts, and for mcp
 * and base also launch.ts, what main.ts needs before it starts the analysis
 * (see there); for base also files.ts, the file access without the digests,
 * whose top-level await the sandbox must not wait for (src/mcp/sandbox.ts);
 * for facts and semantics also clean.ts, the syntax check the
 * sandbox loads while the analysis starts, without the checker
 * (src/mcp/sandbox.ts); for contracts also plain.ts, its part without zod,
 * which the analysis worker loads instead of mod.ts (src/mcp/handlers.ts).
 */
export const ENTRIES: Readonly<Record<string, readonly string[]>> = {
  base: ["mod.ts", "launch.ts", "files.ts"],
  contracts: ["mod.ts", "plain.ts"],
  mcp: ["mod.ts", "launch.ts"],
  facts: ["mod.ts", "clean.ts"],
  semantics: ["mod.ts", "clean.ts"],
};

/** How a module reaches another. */
export type ImportKind = "static" | "type" | "dynamic" | "worker";

/** One import of a module: its target (a relative one resolved to a path) and how. */
export interface Import {
  readonly target: string;
  readonly kind: ImportKind;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^;]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|new URL\(\s*["'](\.[^"']+\.ts)["']/g;

/**
 * Every import of `source`, the text of `file`: `import`/`export … from`
 * (`type` when the whole statement is `import type`/`export type`), a
 * side-effect `import "…"`, `import("…")` (dynamic), and
 * `new URL("./….ts", …)` (a worker's module).
 */
export function importsIn(file: string, source: string): Import[] {
  const found: Import[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const [, type, from, bare, dynamic, worker] = match;
    const specifier = from ?? bare ?? dynamic ?? worker;
    const kind: ImportKind = from !== undefined
      ? (type === undefined ? "static" : "type")
      : bare !== undefined
      ? "static"
      : dynamic !== undefined
      ? "dynamic"
      : "worker";
    const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : specifier;
    found.push({ target, kind });
  }
  return found;
}

/** Every problem of the tree under `root`, one line each; empty when the rule holds. */
export function layerProblems(root: string): string[] {
  const layerOf = (file: string): string | null => {
    const rel = relative(root, file).replaceAll("\\", "/");
    if (rel === "main.ts") return "main";
    return /^src\/([^/]+)\//.exec(rel)?.[1] ?? null;
  };
  const show = (file: string) => relative(root, file).replaceAll("\\", "/");
  const files = [join(root, "main.ts"), ...sourceFiles(join(root, "src"))].filter(isFile);
  const problems: string[] = [];
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const from = layerOf(file);
    if (from === null) continue;
    if (!(from in ALLOWED)) {
      problems.push(`${show(file)}: folder src/${from} is not a known layer`);
      continue;
    }
    const targets = importsOf(file);
    graph.set(file, targets.filter((t) => files.includes(t)));
    for (const target of targets) {
      const to = layerOf(target);
      if (to === null || to === from) continue;
      if (!ALLOWED[from].includes(to)) {
        problems.push(`${show(file)} imports ${show(target)}: ${from} may not import ${to}`);
      } else if (
        !(ENTRIES[to] ?? ["mod.ts"]).some((entry) => show(target).endsWith(`src/${to}/${entry}`))
      ) {
        problems.push(`${show(file)} imports ${show(target)}: use src/${to}/mod.ts`);
      }
    }
  }
  for (const cycle of cyclesOf(graph)) {
    problems.push(`import cycle among ${cycle.map(show).join(", ")}`);
  }
  return problems;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false; // main.ts may not exist in a fixture
  }
}

function* sourceFiles(dir: string): Generator<string> {
  if (!isDirectory(dir)) return;
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts") || entry.name.endsWith(".js")) yield path;
  }
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The project files `file` imports, in any way (a layer rule holds for every kind). */
function importsOf(file: string): string[] {
  return importsIn(file, Deno.readTextFileSync(file))
    .map((i) => i.target)
    .filter((target) => target.startsWith("/"));
}

/**
 * The strongly connected components of more than one file (or a file that
 * imports itself): Tarjan's algorithm, so files that import each other
 * are reported once, together, however many cycles join them.
 */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) {
      cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}
