/**
 * Layers point one way (docs/architecture.md): this test reads every import
 * under src/ and main.ts and fails on an import a layer may not make, on a
 * reach into another layer past its mod.ts, and on a cycle between layers.
 */
import { assertEquals } from "../support/assert.ts";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** What each layer may import, besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  base: [],
  syntax: ["base"],
  semantics: ["base", "syntax"],
  docs: ["base"],
  facts: ["base", "syntax", "semantics"],
  repo: ["base", "syntax", "semantics", "docs"],
  backend: ["base", "syntax", "semantics"],
  mcp: ["base", "facts", "docs", "repo"],
  cli: ["base", "syntax", "semantics", "facts", "docs", "repo", "backend"],
  main: ["base", "mcp"],
};

function layerOf(file: string): string | null {
  const rel = relative(repo, file).replaceAll("\\", "/");
  if (rel === "main.ts") return "main";
  const match = /^src\/([^/]+)\//.exec(rel);
  return match ? match[1] : null;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts") || entry.name.endsWith(".js")) yield path;
  }
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|new URL\(\s*["'](\.[^"']+\.ts)["']/g;

function importsOf(file: string): string[] {
  const text = Deno.readTextFileSync(file);
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier.startsWith(".")) found.push(resolve(dirname(file), specifier));
  }
  return found;
}

Deno.test("layers: every import points down, and only through the other layer's mod.ts", () => {
  const problems: string[] = [];
  const files = [join(repo, "main.ts"), ...sourceFiles(join(repo, "src"))].filter((f) => {
    try {
      return Deno.statSync(f).isFile;
    } catch {
      return false; // main.ts may not exist yet in a partial checkout of the layers
    }
  });
  for (const file of files) {
    const from = layerOf(file);
    if (from === null) continue;
    if (!(from in ALLOWED)) {
      problems.push(`${relative(repo, file)}: folder src/${from} is not a known layer`);
      continue;
    }
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      if (to === null || to === from) continue;
      const rel = relative(repo, target).replaceAll("\\", "/");
      if (!ALLOWED[from].includes(to)) {
        problems.push(`${relative(repo, file)} imports ${rel}: ${from} may not import ${to}`);
      } else if (!rel.endsWith(`src/${to}/mod.ts`)) {
        problems.push(`${relative(repo, file)} imports ${rel}: use src/${to}/mod.ts`);
      }
    }
  }
  assertEquals(problems, []);
});
