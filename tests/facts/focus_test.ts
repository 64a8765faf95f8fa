/**
 * A packet from a focus (src/semantics/focus.ts) equals the packet from the
 * whole analysis, byte for byte: the first answer of a server that has not
 * analysed the whole program yet, and every `nazm context`. Compared at
 * every name and at random offsets of every file, after each of 500 random
 * edits of generated programs (tests/support/edit_programs.ts: type errors
 * in unchanged modules, private names, duplicates, syntax errors, refused
 * files, deleted modules), and on every semantic golden case and example. A
 * focus's own definitions and diagnostics are compared too. Each is compared
 * twice: parsed in full, and as the server's first parse has it, the files a
 * syntax check found clean read from skims.
 *
 * `NAZM_FOCUS_SEED` replays a run.
 *
 * @module
 */
import { join } from "node:path";
import { assert } from "../support/assert.ts";
import { REPO } from "../support/fixtures.ts";
import { memoryHost, ROOT_DIR, splitCase } from "../semantics/_support.ts";
import {
  type Compilation,
  loadCompilation,
  loadParsed,
  openSources,
  type ParsedCompilation,
  type SourceHost,
} from "../../src/semantics/mod.ts";
import { cleanFiles, cleanFilesOf } from "../../src/semantics/clean.ts";
import type { ParseResult } from "../../src/syntax/mod.ts";
import { contextOf, type ContextRequest, focusedContext } from "../../src/facts/mod.ts";
import type { Focus } from "../../src/semantics/mod.ts";
import { generate, prng } from "../../bench/gen.ts";
import {
  applyEdit,
  editProgram,
  printProgram,
  PROGRAM_ROOT,
  programHost,
} from "../support/edit_programs.ts";

/**
 * The whole compilation and the parsed one of the same sources, and a
 * maker of parsed ones as the server's first makes them: the files its
 * sandbox's syntax check finds clean (semantics/clean.ts) read from skims
 * until a focus needs their bodies. A fresh one per packet, since a focus
 * parses in full what it reads.
 */
function both(root: string, sourceRoot: string, host: SourceHost) {
  const clean = cleanFilesOf(
    [...cleanFiles(openSources(root, { sourceRoot, host }))].filter((verdict) => verdict !== null),
  );
  return {
    whole: loadCompilation(root, { sourceRoot, host }),
    parsed: loadParsed(root, { sourceRoot, host }),
    skimmed: () => loadParsed(root, { sourceRoot, host, clean, skims: new CountedSkims() }),
  };
}

/**
 * Skims made by every `both(…).skimmed()`, each when a focus first reads it:
 * the test shows they were read.
 */
let skimsMade = 0;

class CountedSkims extends Map<string, ParseResult> {
  override set(key: string, skim: ParseResult): this {
    skimsMade++;
    return super.set(key, skim);
  }
}

/**
 * The requests to compare: `names` of the names the whole model indexes in
 * each file (declarations and uses; all when null), `extra` random offsets
 * per file, and a file the compilation does not have.
 */
function requests(
  whole: Compilation,
  random: () => number,
  names: number | null,
  extra: number,
): ContextRequest[] {
  const out: ContextRequest[] = [];
  const at =
    (file: { path: string; lineIndex: Compilation["files"][number]["lineIndex"] }) =>
    (offset: number): ContextRequest => {
      const { line, column } = file.lineIndex.position(offset);
      return { file: file.path, position: { line, column } };
    };
  // The model is read only when the compilation has one to read.
  const model = whole.rootError === null && !whole.needsSyntaxRecovery ? whole.model : null;
  for (const file of sampled(whole.files, random)) {
    const request = at(file);
    const entries = model?.index[file.path] ?? [];
    if (names === null) { for (const entry of entries) out.push(request(entry.start)); }
    else if (entries.length > 0) {
      for (let i = 0; i < names; i++) {
        const entry = entries[Math.floor(random() * entries.length)];
        // At the name's start or anywhere up to just past its end.
        out.push(request(entry.start + Math.floor(random() * (entry.end - entry.start + 1))));
      }
    }
    for (let i = 0; i < extra; i++) {
      out.push(request(Math.floor(random() * (file.bytes.length + 1))));
    }
  }
  if (whole.files.length > 0) {
    out.push({
      file: join(whole.sourceRoot, whole.files[0].path),
      position: { line: 1, column: 1 },
    });
  }
  out.push({ file: "nowhere.nz", position: { line: 1, column: 1 } });
  return out;
}

/**
 * A compilation's files, or 8 at random of more than 40: a case of 10,000
 * modules (N0603) would otherwise be focused 10,000 times, each over every
 * module.
 */
function sampled<T>(files: readonly T[], random: () => number): readonly T[] {
  if (files.length <= 40) return files;
  return Array.from({ length: 8 }, () => files[Math.floor(random() * files.length)]);
}

/** Every request's packet three ways; the first difference, described, or null. */
function differences(
  whole: Compilation,
  parsed: ParsedCompilation,
  skimmed: () => ParsedCompilation,
  asked: readonly ContextRequest[],
  random: () => number,
): string | null {
  for (const request of asked) {
    const want = JSON.stringify(contextOf(whole, request));
    const got = JSON.stringify(focusedContext(parsed, request));
    if (got !== want) {
      return `at ${JSON.stringify(request)}\n focused: ${got}\n whole:   ${want}`;
    }
    const fromSkims = JSON.stringify(focusedContext(skimmed(), request));
    if (fromSkims !== want) {
      return `at ${JSON.stringify(request)}\n focused on skims: ${fromSkims}\n whole:   ${want}`;
    }
  }
  if (whole.rootError !== null || whole.needsSyntaxRecovery) return null;
  // A focus's own facts, beyond what one packet shows: every definition of
  // its module (scopes, bindings, shape) and its file's diagnostics.
  for (const file of sampled(whole.files, random)) {
    const problem = focusDifference(whole, parsed.focus([file.module]), file) ??
      focusDifference(whole, skimmed().focus([file.module]), file);
    if (problem !== null) return problem;
  }
  return null;
}

/** A focus's own facts against the whole analysis's: the first difference, or null. */
function focusDifference(
  whole: Compilation,
  focus: Focus,
  file: { readonly module: string; readonly path: string },
): string | null {
  const defs = JSON.stringify(focus.model.definitions);
  const wholeDefs = JSON.stringify(
    whole.model.definitions.filter((d) => d.module === file.module),
  );
  if (defs !== wholeDefs) return `the definitions of ${file.module}\n ${defs}\n ${wholeDefs}`;
  const tests = JSON.stringify(focus.model.tests);
  const wholeTests = JSON.stringify(whole.model.tests.filter((t) => t.module === file.module));
  if (tests !== wholeTests) return `the tests of ${file.module}\n ${tests}\n ${wholeTests}`;
  const found = JSON.stringify(focus.diagnostics);
  const all = JSON.stringify(whole.diagnostics.filter((d) => d.file === file.path));
  if (found !== all) return `the diagnostics of ${file.path}\n ${found}\n ${all}`;
  return null;
}

const STEPS = 100;
const SEQUENCES = 5;

Deno.test("focus: after each of 500 random edits, every packet equals the whole analysis's", () => {
  const seed = Number(Deno.env.get("NAZM_FOCUS_SEED") ?? Math.floor(Math.random() * 2 ** 31));
  let steps = 0;
  let answered = 0;
  let refused = 0;
  for (let s = 0; s < SEQUENCES; s++) {
    const random = prng(seed + s);
    const program = editProgram(seed + s);
    const log: string[] = ["generated"];
    for (let step = 0; step <= STEPS; step++) {
      if (step > 0) log.push(applyEdit(program, random));
      const files = printProgram(program);
      const { whole, parsed, skimmed } = both(
        `${PROGRAM_ROOT}/main.nz`,
        PROGRAM_ROOT,
        programHost(files),
      );
      const asked = requests(whole, random, 3, 2);
      const problem = differences(whole, parsed, skimmed, asked, random);
      if (problem !== null) {
        throw new Error(
          `seed ${seed + s} (NAZM_FOCUS_SEED=${seed}), step ${step}: ${problem}\n` +
            `edits:\n  ${log.join("\n  ")}\n` +
            [...files].map(([p, t]) => `--- ${p}\n${t}`).join("\n"),
        );
      }
      for (const request of asked) {
        if (focusedContext(parsed, request).kind === "answer") answered++;
        else refused++;
      }
      steps++;
    }
  }
  assert(steps >= 500, `${steps} steps`);
  assert(skimsMade > 5000, `${skimsMade} skims`);
  // Both kinds of outcome were compared, many times.
  assert(answered > 1000 && refused > 300, `${answered} answers, ${refused} refusals`);
});

Deno.test("focus: every packet of every semantic golden case and example", () => {
  const random = prng(7);
  let compared = 0;
  const cases: { root: string; sourceRoot: string; host: SourceHost }[] = [];
  const dir = join(REPO, "tests/golden/semantics");
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".nz")) continue;
    const c = splitCase(Deno.readFileSync(join(dir, entry.name)));
    cases.push({ root: `${ROOT_DIR}/${c.root}`, sourceRoot: ROOT_DIR, host: memoryHost(c) });
  }
  for (const example of ["shapes", "ledger"]) {
    const sourceRoot = join(REPO, "examples", example);
    cases.push({
      root: join(sourceRoot, "main.nz"),
      sourceRoot,
      host: { readFile: (path) => Deno.readFileSync(path) },
    });
  }
  for (const c of cases) {
    const { whole, parsed, skimmed } = both(c.root, c.sourceRoot, c.host);
    // Each request focuses anew, over every module: a case of 10,000 gets a
    // few, all on one skimmed compilation.
    const huge = whole.files.length > 40;
    let once: ParsedCompilation | null = null;
    const skims = huge ? () => once ??= skimmed() : skimmed;
    const asked = requests(whole, random, huge ? 1 : null, huge ? 0 : 8);
    const problem = differences(whole, parsed, skims, asked, random);
    if (problem !== null) throw new Error(`${c.root}: ${problem}`);
    compared += asked.length;
  }
  assert(cases.length > 40 && compared > 1500, `${cases.length} cases, ${compared} requests`);
  assert(skimsMade > 1000, `${skimsMade} skims`);
});

Deno.test("focus: binds only the modules its check reaches, and skims only those", () => {
  // 40 modules, each importing the one before it and up to two of the 30
  // before that: every module reaches most of the others through imports.
  const program = generate({ lines: 20_000, modules: 40 });
  const files = new Map(
    [...program.nazm].map(([path, text]) => [path, new TextEncoder().encode(text)]),
  );
  const host = memoryHost({ files, root: program.nazmRoot, refused: new Map() });
  const root = join(ROOT_DIR, program.nazmRoot);
  const { whole, skimmed } = both(root, ROOT_DIR, host);
  const paths = [...files.keys()].filter((path) => path !== program.nazmRoot).sort();
  for (const path of [paths[0], paths[19], paths[39]]) {
    const made = skimsMade;
    const focus = skimmed().focus([path.slice(0, -".nz".length).replaceAll("/", ".")]);
    const problem = focusDifference(whole, focus, {
      module: focus.model.definitions[0].module,
      path,
    });
    assert(problem === null, problem ?? "");
    // The readers are parsed in full; what they import, and what the
    // signatures their bodies read import, are skimmed: a fraction of 41.
    const skims = skimsMade - made;
    assert(skims > 0 && skims <= 20, `a focus on ${path} made ${skims} skims`);
  }
});
