/**
 * The incremental engine (src/semantics/engine.ts): after every edit of a
 * random sequence, its analysis equals a whole analysis of the same bytes,
 * byte for byte — every diagnostic and the whole semantic model (what every
 * tool of nazm-mcp builds its answers from), the answers built on them
 * (diagnostic index, documents, summary, snapshot, context packets, rename
 * and fix plans), and the files read; and its cut-off checks again only what
 * depends on the edit. The engine is driven as nazm-mcp and nazm lsp drive
 * it: one fact cache (parses by digest, pruned after each analysis; an
 * unchanged file is the same byte array), plans verified incrementally
 * without being kept, the same contents analysed twice.
 *
 * `NAZM_ENGINE_SEED` replays a run; `NAZM_ENGINE_STEPS` lengthens each
 * sequence (locally: the committed run stays a few seconds).
 *
 * @module
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  type Compilation,
  type Engine,
  type FileMemo,
  loadCompilation,
  newEngine,
  type ParseCache,
  type Resolutions,
} from "../../src/semantics/mod.ts";
import { type Node, walk } from "../../src/syntax/mod.ts";
import {
  contextOf,
  diagnosticIds,
  documentsOf,
  type FactCache,
  indexOf,
  newFactCache,
  pruneFactCache,
  semanticPatchOf,
  snapshotOf,
  sourceState,
  summaryOf,
} from "../../src/facts/mod.ts";
import { prng } from "../../bench/gen.ts";
import {
  applyEdit,
  editProgram,
  printProgram,
  PROGRAM_ROOT,
  programHost,
  refusedText,
} from "../support/edit_programs.ts";

const ROOT = PROGRAM_ROOT;
/** A file's text that stands for bytes that are not UTF-8 (a file read but not parsed). */
const NOT_UTF8 = refusedText("not_utf8");

function compileFiles(
  files: ReadonlyMap<string, string>,
  options: {
    engine?: Engine;
    cache?: ParseCache;
    memo?: FileMemo;
    commit?: boolean;
    resolve?: boolean;
    arrays?: Map<string, { text: string; bytes: Uint8Array }>;
  } = {},
): Compilation {
  const host = programHost(files, options.arrays);
  return loadCompilation(`${ROOT}/main.nz`, { sourceRoot: ROOT, host, ...options });
}

/** A long-lived caller: the fact cache nazm-mcp's worker and nazm lsp keep, and the files' arrays. */
interface Caller {
  readonly cache: FactCache;
  readonly arrays: Map<string, { text: string; bytes: Uint8Array }>;
}

function newCaller(): Caller {
  return { cache: newFactCache(), arrays: new Map() };
}

/** The compilation of `files` as the caller makes it; `commit: false` is a plan's verification. */
function compileAs(caller: Caller, files: ReadonlyMap<string, string>, commit = true) {
  const { cache, arrays } = caller;
  const compilation = compileFiles(files, {
    engine: cache.engine,
    cache: cache.parses,
    memo: cache.memo,
    commit,
    arrays,
  });
  if (commit) pruneFactCache(cache, compilation);
  return compilation;
}

/**
 * Everything an answer is built from, and answers built on it, as one
 * string: the facts layer finds a definition's diagnostics among the
 * compilation's by identity (their ids, their owners), so equal JSON of the
 * model alone would not show a definition holding an earlier analysis's
 * diagnostic objects.
 */
function facts(c: Compilation, answers: Answers = "all"): string {
  const own = new Set(c.diagnostics);
  const strays = c.model.definitions.flatMap((def) =>
    def.diagnostics.filter((d) => !own.has(d)).map((d) => `${def.key}: ${d.code}`)
  );
  return JSON.stringify({
    strays,
    answers: answers === "none" ? null : answersOf(c, answers === "all"),
    root: c.root,
    rootError: c.rootError,
    files: c.files.map((f) => [f.path, f.module, f.digest]),
    rejected: c.rejected.map((f) => [f.path, f.digest, f.tooLarge]),
    unread: [...c.unread],
    needsSyntaxRecovery: c.needsSyntaxRecovery,
    diagnostics: c.diagnostics,
    model: c.model,
  });
}

/** One definition in this many gets a context packet (each hashes every file again). */
const CONTEXT_SAMPLE = 8;

/** Which answers {@link facts} builds: for time, not every step builds them all. */
type Answers = "none" | "some" | "all";

/** What nazm-mcp answers from a compilation: the index, summary, packets (snapshot, documents). */
function answersOf(c: Compilation, all: boolean): unknown {
  if (c.rootError !== null) return null;
  try {
    return answersOfLoaded(c, all);
  } catch (error) {
    // A fact that throws on one side only is a difference the failure shows with its seed.
    return { thrown: String(error) };
  }
}

function answersOfLoaded(c: Compilation, all: boolean): unknown {
  const files = new Map(c.files.map((f) => [f.path, f]));
  return {
    index: indexOf(c),
    summary: summaryOf(c),
    // Packets for some definitions (`strays` checks every definition's diagnostics).
    contexts: c.model.definitions.filter((_, i) =>
      i % CONTEXT_SAMPLE === c.files.length % CONTEXT_SAMPLE
    ).map((def) => {
      const at = files.get(def.file)!.lineIndex.position(def.nameSpan.start);
      return contextOf(c, { file: def.file, position: { line: at.line, column: at.column } });
    }),
    snapshot: all ? snapshotOf(c) : null,
    documents: all ? documentsOf(c) : null,
  };
}

/**
 * Plans nazm.semantic_patch makes on `c` (with the caller's cache: its
 * verification is incremental) and on a whole analysis: a rename of a
 * private definition or a local, and the first fix of a diagnostic.
 */
function plans(
  c: Compilation,
  whole: Compilation,
  caller: Caller,
  random: () => number,
): [string, string][] {
  const options = { cache: caller.cache };
  const out: [unknown, unknown][] = [];
  const defs = whole.model.definitions.filter((d) => d.name !== "main");
  if (defs.length > 0) {
    const def = defs[Math.floor(random() * defs.length)];
    const local = def.bindings[0];
    const at = local !== undefined && random() < 0.5 ? local.declSpan.start : def.nameSpan.start;
    const file = whole.files.find((f) => f.path === def.file)!;
    const position = file.lineIndex.position(at);
    const request = {
      operation: "rename" as const,
      file: def.file,
      position: { line: position.line, column: position.column },
      new_name: /^[A-Z]/.test(def.name) && at === def.nameSpan.start ? "Zé" : "z_new",
    };
    out.push([semanticPatchOf(c, request, options), semanticPatchOf(whole, request)]);
  }
  const fixable = [...diagnosticIds(whole)].filter(([d]) => d.fixes.length > 0);
  if (fixable.length > 0) {
    const [, id] = fixable[Math.floor(random() * fixable.length)];
    const request = {
      operation: "fix" as const,
      diagnostic: id,
      fix: 0,
      state: sourceState(whole),
    };
    out.push([semanticPatchOf(c, request, options), semanticPatchOf(whole, request)]);
  }
  return out.map(([got, want]) => [JSON.stringify(got), JSON.stringify(want)]);
}

const SEQUENCES = 10;
const STEPS = Number(Deno.env.get("NAZM_ENGINE_STEPS") ?? 60);

/**
 * The resolutions recorded for the nodes of one file's tree, as one string:
 * each entry's node by kind and span, its value as JSON.
 */
function resolutionsIn(resolutions: Resolutions | null, tree: Node): string {
  if (resolutions === null) return "null";
  const nodes = new Set<unknown>();
  walk(tree, (node) => (nodes.add(node), true));
  const tables = Object.entries(resolutions) as [string, Map<Node, unknown>][];
  return tables.map(([name, table]) => {
    const entries = [...table].filter(([node]) => nodes.has(node)).map(([node, value]) =>
      `${node.kind}@${node.start}-${node.end} ${JSON.stringify(value)}`
    ).sort();
    return `${name}:\n  ${entries.join("\n  ")}`;
  }).join("\n");
}

Deno.test("engine: after each of 600 random edits, the same facts as a whole analysis", () => {
  const seed = Number(Deno.env.get("NAZM_ENGINE_SEED") ?? Math.floor(Math.random() * 2 ** 31));
  let steps = 0;
  let recheckedOne = 0;
  let resolvedOne = 0;
  let planned = 0;
  for (let s = 0; s < SEQUENCES; s++) {
    const random = prng(seed + s);
    const program = editProgram(seed + s);
    const caller = newCaller();
    const engine = caller.cache.engine;
    const log: string[] = ["generated"];
    let step = 0;
    const differs = (files: ReadonlyMap<string, string>, what: string) =>
      new Error(
        `seed ${seed + s} (NAZM_ENGINE_SEED=${seed}), step ${step}: ${what} differs\n` +
          `edits:\n  ${log.join("\n  ")}\n` +
          [...files].map(([p, t]) => `--- ${p}\n${t}`).join("\n"),
      );
    // A compilation whose model was not read yet, with its files.
    let unread: { compilation: Compilation; files: Map<string, string> } | null = null;
    for (; step <= STEPS; step++) {
      if (step > 0) log.push(applyEdit(program, random));
      const files = printProgram(program);
      const incremental = compileAs(caller, files);
      const whole = compileFiles(files);
      // An answer still being made from the last analysis reads its model only now.
      if (
        unread !== null &&
        facts(unread.compilation, "some") !== facts(compileFiles(unread.files), "some")
      ) {
        throw differs(unread.files, "the model of the analysis before, read after this one,");
      }
      unread = null;
      // Some steps leave the model unread, as `nazm check` would.
      if (random() < 0.85 || step === STEPS) {
        const answers = step % 10 === 0 ? "all" : step % 2 === 0 ? "some" : "none";
        if (facts(incremental, answers) !== facts(whole, answers)) {
          throw differs(files, "the analysis");
        }
      } else if (JSON.stringify(incremental.diagnostics) !== JSON.stringify(whole.diagnostics)) {
        throw differs(files, "the diagnostics");
      } else if (random() < 0.5) {
        unread = { compilation: incremental, files };
      }
      if (random() < 0.3 && !incremental.needsSyntaxRecovery && incremental.files.length > 0) {
        // One module's resolutions, as an editor asks for them: that module checked again
        // alone (engine.ts resolveModule), the same as a whole analysis with them records.
        const file = incremental.files[Math.floor(random() * incremental.files.length)];
        const resolved = compileFiles(files, { cache: caller.cache.parses, resolve: true });
        const got = resolutionsIn(incremental.resolutionsOf(file.module), file.parse.tree);
        const want = resolutionsIn(resolved.resolutionsOf(file.module), file.parse.tree);
        if (got !== want) {
          throw differs(files, `the resolutions of ${file.module}\n${got}\n${want}\n`);
        }
        resolvedOne++;
      }
      if (engine.report!.checked.length === 1) recheckedOne++;
      const kept = engine.state;
      const roll = random();
      if (roll < 0.08) {
        // A plan's verification: incremental over this analysis, not kept.
        planned++;
        for (const [got, want] of plans(incremental, whole, caller, random)) {
          if (got !== want) throw differs(files, `a plan\n${got}\n${want}\n`);
        }
        assert(engine.state === kept, "a verification replaced the engine's analysis");
      } else if (roll < 0.16) {
        // Another edit's contents analysed without committing, then these again.
        const other = structuredClone(program);
        log.push(`(uncommitted: ${applyEdit(other, random)})`);
        const otherFiles = printProgram(other);
        const trial = compileAs(caller, otherFiles, false);
        if (facts(trial, "some") !== facts(compileFiles(otherFiles), "some")) {
          throw differs(otherFiles, "an uncommitted analysis");
        }
        assert(engine.state === kept, "an uncommitted analysis replaced the engine's");
      } else if (roll < 0.22) {
        // The same contents again: the engine's last analysis, as it was.
        const again = compileAs(caller, files);
        if (facts(again, "some") !== facts(whole, "some")) throw differs(files, "a repeat");
      }
      steps++;
    }
  }
  assert(steps >= 500, `${steps} steps`);
  assert(planned > 0, "no plan was made");
  assert(resolvedOne > steps / 10, `${resolvedOne} of ${steps} steps compared resolutions`);
  // The cut-off did its work: many edits checked one module again.
  assert(recheckedOne > steps / 10, `${recheckedOne} of ${steps} steps checked one module`);
});

/**
 * Compiles `steps` in turn with one engine and one parse cache (as the
 * server and the language server do: an unchanged file's tree is the same
 * object, and its bound module is kept); each step's facts must equal a
 * whole analysis's.
 */
function sequence(steps: readonly Map<string, string>[]): { checked: string[][]; engine: Engine } {
  const engine = newEngine();
  const cache: ParseCache = new Map();
  const checked: string[][] = [];
  for (const files of steps) {
    const incremental = compileFiles(files, { engine, cache });
    assertEquals(facts(incremental), facts(compileFiles(files)));
    checked.push([...engine.report!.checked].sort());
  }
  return { checked, engine };
}

/** The bound module of each module, as the engine keeps it. */
function boundModules(engine: Engine): Map<string, unknown> {
  return new Map([...engine.state!.bound.modules].map(([name, b]) => [name, b.info]));
}

const C = `pub record R { a: Int, b: String }\n`;
const A =
  `import lib.c\n\npub fn get() -> c.R {\n  c.R { a: 1, b: "x" }\n}\n\npub fn size(n: Int) -> Int {\n  n + 1\n}\n`;
const B = `import lib.a\n\npub fn use_it() -> Int {\n  a.get().a + a.size(2)\n}\n`;
const MAIN =
  `import lib.b\nimport lib.a\nimport lib.c\n\nfn main() -> Unit {\n  print(to_string(b.use_it() + a.size(1)));\n  print(c.R { a: 1, b: "y" }.b);\n}\n`;
const base = new Map([
  ["main.nz", MAIN],
  ["lib/a.nz", A],
  ["lib/b.nz", B],
  ["lib/c.nz", C],
]);
const edited = (path: string, text: string) => new Map([...base, [path, text]]);

Deno.test("engine: a body edit checks its module alone", () => {
  const { checked } = sequence([base, edited("lib/a.nz", A.replace("n + 1", "n + 2 * n"))]);
  assertEquals(checked, [["lib.a", "lib.b", "lib.c", "main"], ["lib.a"]]);
});

Deno.test("engine: a body edit binds its module again, and links again only its importers", () => {
  const engine = newEngine();
  const cache: ParseCache = new Map();
  compileFiles(base, { engine, cache });
  const before = boundModules(engine);
  compileFiles(edited("lib/a.nz", A.replace("n + 1", "n + 2 * n")), { engine, cache });
  const after = boundModules(engine);
  // a is bound again; b and main import a and are linked again, in place; c is untouched.
  assert(after.get("lib.a") !== before.get("lib.a"));
  for (const name of ["lib.b", "lib.c", "main"]) assert(after.get(name) === before.get(name), name);
});

Deno.test("engine: a missing import's help follows the module it names a member of", () => {
  // main imports `lib.a.size`, which names no file; its help says that lib.a
  // (loaded for b) defines `size`, until it does not: main is linked again
  // though no module it imports changed.
  const main =
    `import lib.b\nimport lib.a.size\n\nfn main() -> Unit {\n  print(to_string(b.use_it()));\n}\n`;
  const b = `import lib.a\n\npub fn use_it() -> Int {\n  a.get().a\n}\n`;
  const wrong = new Map([...base, ["main.nz", main], ["lib/b.nz", b]]);
  const renamed = new Map([...wrong, ["lib/a.nz", A.replace("size(n: Int)", "grow(n: Int)")]]);
  sequence([wrong, renamed, wrong]);
});

Deno.test("engine: a body edit that moves later declarations is still a body edit", () => {
  const longer = A.replace('c.R { a: 1, b: "x" }', 'c.R { a: 1 + 2 + 3 + 4, b: "longer ✓" }');
  const { checked } = sequence([base, edited("lib/a.nz", longer)]);
  assertEquals(checked[1], ["lib.a"]);
});

Deno.test("engine: a signature edit checks the modules that read it, not the others", () => {
  const { checked } = sequence([
    base,
    edited("lib/a.nz", A.replace("size(n: Int)", "size(n: String)")),
  ]);
  // b and main call `size`; c does not read a.
  assertEquals(checked[1], ["lib.a", "lib.b", "main"]);
});

Deno.test("engine: a type read through another module's signature reaches its reader", () => {
  // b never imports c, but `a.get().a` reads c's record: when its field
  // changes type, b is checked again (and now has an error).
  const { checked } = sequence([
    base,
    edited("lib/c.nz", C.replace("a: Int", "a: String")),
  ]);
  assert(checked[1].includes("lib.b"), `checked: ${checked[1]}`);
});

Deno.test("engine: a diagnostic pointing into an edited file is recomputed", () => {
  // b passes a String where `size` takes an Int: its label points at a's
  // parameter; an edit above it in a moves that place.
  const wrong = edited("lib/b.nz", B.replace("a.size(2)", `a.size("two")`));
  const moved = new Map([...wrong, ["lib/a.nz", "/// moved\n" + A]]);
  sequence([wrong, moved]);
});

Deno.test("engine: deleting and restoring a file, a syntax error and back", () => {
  const without = new Map(base);
  without.delete("lib/c.nz");
  sequence([
    base,
    without,
    base,
    edited("lib/a.nz", A.replace("pub fn size", "pub fn size(((")),
    base,
  ]);
});

Deno.test("engine: verification does not commit (the engine keeps the disk's analysis)", () => {
  const engine = newEngine();
  compileFiles(base, { engine });
  const kept = engine.state;
  const plan = compileFiles(edited("lib/a.nz", A.replace("n + 1", "n + 3")), {
    engine,
    commit: false,
  });
  assertEquals(engine.state, kept);
  assertEquals(facts(plan), facts(compileFiles(edited("lib/a.nz", A.replace("n + 1", "n + 3")))));
  assertEquals(engine.report!.checked, ["lib.a"]);
});

Deno.test("engine: renaming a parameter is not an interface change", () => {
  const { checked } = sequence([
    base,
    edited(
      "lib/a.nz",
      A.replace("size(n: Int)", "size(count: Int)").replace("n + 1", "count + 1"),
    ),
  ]);
  assertEquals(checked[1], ["lib.a"]);
});

Deno.test("engine: a file that cannot be parsed, and back, reaches its readers", () => {
  sequence([base, edited("lib/a.nz", NOT_UTF8), base, edited("lib/c.nz", NOT_UTF8), base]);
});

Deno.test("engine: a kept definition's diagnostics are the compilation's own, for ids and owners", () => {
  // An edit in main leaves lib.c's unused private `spare` untouched: its N0403
  // is made again by the program checks, and the packet and the index find
  // a definition's diagnostics among the compilation's by identity.
  const c = C + `\nfn spare() -> Int {\n  1\n}\n`;
  const before = new Map([...base, ["lib/c.nz", c]]);
  const after = new Map([...before, ["main.nz", MAIN.replace("a.size(1)", "a.size(2)")]]);
  const { engine } = sequence([before, after]);
  const spare = { file: "lib/c.nz", position: { line: 3, column: 4 } };
  const incremental = compileFiles(after, { engine });
  const whole = compileFiles(after);
  assertEquals(
    JSON.stringify(contextOf(incremental, spare)),
    JSON.stringify(contextOf(whole, spare)),
  );
  assertEquals(JSON.stringify(indexOf(incremental)), JSON.stringify(indexOf(whole)));
});

Deno.test("engine: a model first read after a later analysis has its own imports", () => {
  // main imports `size` by name. The second analysis checks main again (a's
  // interface changed) without reading the model; the third links main
  // again, in place, to an `a` whose `size` is private. The second's model,
  // read only then, still has main's `{size}` as the second linked it.
  const main = `import lib.a.{size}\n\nfn main() -> Unit {\n  print(to_string(size(1)));\n}\n`;
  const first = new Map([...base, ["main.nz", main]]);
  const second = new Map([...first, ["lib/a.nz", A + `\npub fn more() -> Int {\n  3\n}\n`]]);
  const third = new Map([...first, ["lib/a.nz", A.replace("pub fn size", "fn size")]]);
  const engine = newEngine();
  const cache: ParseCache = new Map();
  compileFiles(first, { engine, cache }).model;
  const unread = compileFiles(second, { engine, cache });
  compileFiles(third, { engine, cache });
  assertEquals(facts(unread), facts(compileFiles(second)));
});
