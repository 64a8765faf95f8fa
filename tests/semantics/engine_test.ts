/**
 * The incremental engine (src/semantics/engine.ts): after every edit of a
 * random sequence, its analysis equals a whole analysis of the same bytes,
 * byte for byte — every diagnostic and the whole semantic model (what every
 * tool of nazm-mcp builds its answers from), and the files read; and its
 * cut-off checks again only what depends on the edit.
 *
 * @module
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  type Compilation,
  type Engine,
  loadCompilation,
  newEngine,
  type ParseCache,
  type SourceHost,
} from "../../src/semantics/mod.ts";
import { contextOf, documentsOf, indexOf, snapshotOf, summaryOf } from "../../src/facts/mod.ts";
import { prng } from "../../bench/gen.ts";
import { applyEdit, editProgram, printProgram } from "../support/edit_programs.ts";

const ROOT = "/virtual/src";
const encoder = new TextEncoder();
/** A file's text that stands for bytes that are not UTF-8 (a file read but not parsed). */
const NOT_UTF8 = "<not utf-8>";

function hostOf(files: ReadonlyMap<string, string>): SourceHost {
  const bytes = new Map(
    [...files].map((
      [path, text],
    ) => [
      `${ROOT}/${path}`,
      text === NOT_UTF8 ? new Uint8Array([0x66, 0xff]) : encoder.encode(text),
    ]),
  );
  return {
    readFile: (path) => bytes.get(path) ?? { error: "not_found", message: "file not found" },
  };
}

function compileFiles(
  files: ReadonlyMap<string, string>,
  options: { engine?: Engine; cache?: ParseCache; commit?: boolean } = {},
): Compilation {
  return loadCompilation(`${ROOT}/main.nz`, { sourceRoot: ROOT, host: hostOf(files), ...options });
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

const SEQUENCES = 10;
const STEPS = 60;

Deno.test("engine: after each of 600 random edits, the same facts as a whole analysis", () => {
  const seed = Number(Deno.env.get("NAZM_ENGINE_SEED") ?? Math.floor(Math.random() * 2 ** 31));
  let steps = 0;
  let recheckedOne = 0;
  for (let s = 0; s < SEQUENCES; s++) {
    const random = prng(seed + s);
    const program = editProgram(seed + s);
    const engine = newEngine();
    const cache = new Map<string, never>();
    const log: string[] = ["generated"];
    for (let step = 0; step <= STEPS; step++) {
      if (step > 0) log.push(applyEdit(program, random));
      const files = printProgram(program);
      const incremental = compileFiles(files, { engine, cache });
      // Some steps leave the model unread, as `nazm check` would.
      const whole = compileFiles(files);
      if (random() < 0.85 || step === STEPS) {
        const got = facts(incremental);
        const want = facts(whole);
        if (got !== want) {
          throw new Error(
            `seed ${
              seed + s
            } (NAZM_ENGINE_SEED=${seed}), step ${step}: the incremental analysis differs\n` +
              `edits:\n  ${log.join("\n  ")}\n` +
              [...files].map(([p, t]) => `--- ${p}\n${t}`).join("\n"),
          );
        }
      } else {
        assertEquals(
          JSON.stringify(incremental.diagnostics),
          JSON.stringify(whole.diagnostics),
          `seed ${seed + s}, step ${step}`,
        );
      }
      if (engine.report!.checked.length === 1) recheckedOne++;
      steps++;
    }
  }
  assert(steps >= 500, `${steps} steps`);
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
  const cache = new Map<string, never>();
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
  const cache = new Map<string, never>();
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
