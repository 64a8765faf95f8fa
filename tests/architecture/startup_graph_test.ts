/**
 * What loads on the way to nazm-mcp's first answer, by static imports (the
 * ones a module cannot run without; `import type` is erased and `import()`
 * waits for its call):
 *
 * - main.ts, up to the start of the analysis, loads neither node:fs nor
 *   hash-wasm, zod or the SDK, nor src/base/mod.ts (src/base/launch.ts);
 * - the analysis worker loads no zod, no schema of src/contracts and no docs
 *   or repo layer before its own code has run (those load beside it:
 *   src/mcp/handlers.ts);
 * - the sandbox loads the base layer and its own modules, nothing of the
 *   analysis (src/mcp/sandbox.ts): it reads for the first analysis.
 *
 * Each was measured as a wait every cold start's first answer shares
 * (bench/README.md, "mcp"), so a change that brings one back fails here,
 * naming the chain of imports that does.
 */
import { assertEquals } from "../support/assert.ts";
import { dirname, join, relative, resolve } from "node:path";
import { importsIn } from "./layers.ts";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The static imports of one module's source: relative paths resolved, others as written. */
function staticImports(file: string, source: string): string[] {
  return importsIn(file, source).filter((i) => i.kind === "static").map((i) => i.target);
}

/** Every module `entry` loads statically, each with the chain of imports that reaches it. */
function staticGraph(entry: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  for (let at = 0; at < queue.length; at++) {
    const file = queue[at];
    if (!file.startsWith("/")) continue; // a package or a built-in: a leaf here
    for (const target of staticImports(file, Deno.readTextFileSync(file))) {
      if (chains.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      queue.push(target);
    }
  }
  return chains;
}

/** The chains reaching a module `forbidden` matches, readable from the repository's root. */
function forbiddenChains(entry: string, forbidden: (module: string) => boolean): string[] {
  const show = (module: string) => module.startsWith("/") ? relative(repo, module) : module;
  return [...staticGraph(join(repo, entry))]
    .filter(([module]) => forbidden(show(module)))
    .map(([, chain]) => chain.map(show).join(" → "));
}

Deno.test("startup graph: main.ts starts the analysis before node:fs, hash-wasm, zod, the SDK or base/mod.ts load", () => {
  const heavy = (module: string) =>
    module === "node:fs" || module === "hash-wasm" || module === "zod" ||
    module.startsWith("@modelcontextprotocol/") || module === "src/base/mod.ts" ||
    module === "src/mcp/mod.ts";
  assertEquals(forbiddenChains("main.ts", heavy), []);
});

Deno.test("startup graph: the server's main thread never loads node:fs, hash-wasm or base/mod.ts", () => {
  // It loads all its code before the analysis is told the roots
  // (src/mcp/bridge.ts startConfinedAnalysis): every module here delays
  // every cold start's first answer.
  const heavy = (module: string) =>
    module === "node:fs" || module === "hash-wasm" || module.startsWith("hash-wasm/") ||
    module === "src/base/mod.ts" || module.startsWith("src/facts/") ||
    module.startsWith("src/semantics/") || module.startsWith("src/syntax/");
  assertEquals(forbiddenChains("src/mcp/mod.ts", heavy), []);
  assertEquals(forbiddenChains("src/mcp/schema_validators.ts", heavy), []);
});

Deno.test("startup graph: the analysis' packages resolve to folders in a server run without a lock file", async () => {
  // The sandbox is given read access to them; the main thread does not load
  // hash-wasm, so only the graph can name it (bridge.ts ANALYSIS_PACKAGES).
  const probe = [
    `import { analysisCodeFolders } from ${JSON.stringify(join(repo, "src/mcp/bridge.ts"))};`,
    `console.log(JSON.stringify(analysisCodeFolders()));`,
  ].join("\n");
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-lock", "--allow-read", "-"],
    cwd: repo,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = output.stdin.getWriter();
  await writer.write(new TextEncoder().encode(probe));
  await writer.close();
  const { code, stdout, stderr } = await output.output();
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const folders: string[] = JSON.parse(new TextDecoder().decode(stdout));
  const names = folders.slice(1).map((folder) =>
    JSON.parse(Deno.readTextFileSync(join(folder, "package.json"))).name
  );
  assertEquals(names, ["zod", "hash-wasm"]);
});

Deno.test("startup graph: the analysis worker loads no zod, no schema, no docs or repo layer", () => {
  const heavy = (module: string) =>
    module === "zod" || module === "src/mcp/registry.ts" ||
    (module.startsWith("src/contracts/") && module !== "src/contracts/plain.ts" &&
      module !== "src/contracts/outcome.ts") ||
    module.startsWith("src/docs/") || module.startsWith("src/repo/");
  assertEquals(forbiddenChains("src/mcp/worker.ts", heavy), []);
});

Deno.test("startup graph: the sandbox loads the file access and nothing of the analysis, zod or the SDK", () => {
  // It must answer the first analysis' reads as soon as that has loaded: its
  // own graph is the base layer and its two neighbours; the syntax check's
  // parser comes by a dynamic import.
  const graph = [...staticGraph(join(repo, "src/mcp/sandbox.ts")).keys()]
    .map((module) => module.startsWith("/") ? relative(repo, module) : module);
  const outside = graph.filter((module) =>
    !module.startsWith("src/base/") && !module.startsWith("node:") &&
    !module.startsWith("hash-wasm") &&
    !["src/mcp/sandbox.ts", "src/mcp/protocol.ts", "src/mcp/reads.ts", "src/mcp/read_channel.ts"]
      .includes(module)
  );
  assertEquals(outside, []);
});

Deno.test("startup graph: the rule sees through re-exports and skips type-only and dynamic imports", () => {
  const file = "/x/a.ts";
  assertEquals(
    staticImports(
      file,
      [
        'import { a } from "./b.ts";',
        'import type { T } from "./types.ts";',
        'export type { U } from "./types2.ts";',
        'export * from "./c.ts";',
        'export { d } from "../d.ts";',
        'import "./side.ts";',
        'const lazy = () => import("./lazy.ts");',
        'import {\n  e,\n  type F,\n} from "zod";',
      ].join("\n"),
    ),
    ["/x/b.ts", "/x/c.ts", "/d.ts", "/x/side.ts", "zod"],
  );
});
