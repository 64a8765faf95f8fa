/**
 * Plan safety, as a property over generated programs (tests/support/
 * plan_programs.ts: shadowing, generics, field shorthands of locals and of
 * functions, nested and list patterns, annotations, non-ASCII text, planted
 * diagnostics). On each program, every private definition, type parameter,
 * parameter and local is renamed to (a) a fresh name, (b) every other name
 * in scope in its module, (c) every prelude name; and every fix of every
 * diagnostic is planned. Each refusal must carry a reason of the closed list
 * and be valid against the published schema; each accepted plan, applied
 * with a careful client's checks and re-compiled from scratch, must add no
 * diagnostic and keep every name's resolution — checked by
 * tests/support/plan_check.ts, not by the verifier's own verdict.
 *
 * Fixed seeds, at least 2,000 requests per run.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { diagnosticById } from "../support/semantic_facts.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { planProgram } from "../support/plan_programs.ts";
import { PATCH_REASONS } from "../../src/contracts/mod.ts";
import { compileFiles, recheckPlan } from "../support/plan_check.ts";
import {
  indexOf,
  type Outcome,
  type Patch,
  type PatchRequest,
  semanticPatchOf,
  snapshotDigest,
  snapshotOf,
  sourceState,
} from "../../src/facts/mod.ts";
import {
  type Compilation,
  PRELUDE_FUNCTIONS,
  PRELUDE_TYPES,
  PRELUDE_VARIANTS,
} from "../../src/semantics/mod.ts";

/** Programs whose every name is renamed every way: about 2,000 requests each. */
const RENAME_SEEDS = [11, 23];
/** Programs whose every fix is planned: a few each (planted diagnostics vary by seed). */
const FIX_SEEDS = Array.from({ length: 16 }, (_, i) => 100 + i);
const REASONS: ReadonlySet<string> = new Set(PATCH_REASONS);
const PRELUDE = [...PRELUDE_FUNCTIONS.keys(), ...PRELUDE_VARIANTS.keys(), ...PRELUDE_TYPES.keys()];
const encoder = new TextEncoder();

interface Target {
  readonly file: string;
  readonly offset: number;
  readonly name: string;
  /** Type-level names (records, enums, type parameters) are upper-case; values lower-case. */
  readonly upper: boolean;
}

/** What to rename: every private definition but main, and every binding of every definition. */
function targets(c: Compilation): Target[] {
  const out: Target[] = [];
  for (const def of c.model.definitions) {
    if (!def.exported && def.key !== "main::main") {
      out.push({
        file: def.file,
        offset: def.nameSpan.start,
        name: def.name,
        upper: def.kind !== "function",
      });
    }
    for (const b of def.bindings) {
      out.push({
        file: def.file,
        offset: b.declSpan.start,
        name: b.name,
        upper: b.kind === "type_parameter",
      });
    }
  }
  return out;
}

/** The names a definition's text uses: its own, its bindings', and every name it refers to. */
function namesOf(def: Compilation["model"]["definitions"][number]): string[] {
  return [def.name, ...def.bindings.map((b) => b.name), ...def.outerNames.map((o) => o.name)];
}

/**
 * The other names in scope where a target is declared or used: the module's
 * top-level names and its imports; for a local, every name of its
 * definition; for a definition, every name of each definition that refers
 * to it (the locals there could capture it).
 */
function namesInScope(c: Compilation, target: Target): Set<string> {
  const names = new Set<string>();
  const compiled = c.files.find((f) => f.path === target.file)!;
  for (const imp of compiled.parse.tree.imports) {
    for (const n of imp.names ?? []) names.add(n.text);
    if (imp.alias !== null) names.add(imp.alias.text);
  }
  const inFile = c.model.definitions.filter((d) => d.file === target.file);
  for (const def of inFile) names.add(def.name);
  const owner = inFile.find((d) => d.span.start <= target.offset && target.offset < d.span.end);
  const renamed = owner !== undefined && owner.nameSpan.start === target.offset ? owner : null;
  if (renamed === null && owner !== undefined) { for (const n of namesOf(owner)) names.add(n); }
  if (renamed !== null) {
    const users = new Set([...renamed.usedBy, ...renamed.calledBy].map((l) => l.key));
    for (const def of inFile) {
      if (users.has(def.key) || def === renamed) namesOf(def).forEach((n) => names.add(n));
    }
  }
  return names;
}

interface Tally {
  requests: number;
  accepted: number;
  readonly reasons: Map<string, number>;
  readonly backstop: string[];
}

function plan(c: Compilation, request: PatchRequest, tally: Tally): Outcome<Patch> {
  const outcome = semanticPatchOf(c, request);
  tally.requests++;
  assertValidAgainst("nazm.patch-2.json", outcome.value);
  if (outcome.kind === "refusal") {
    const { reason, message } = outcome.value;
    assert(REASONS.has(reason), `unknown reason ${reason}`);
    assert(message.length > 0, "a refusal says why");
    tally.reasons.set(reason, (tally.reasons.get(reason) ?? 0) + 1);
    if (reason === "would_break" || reason === "would_change_meaning") {
      tally.backstop.push(`${JSON.stringify(request)}: ${message}`);
    }
  } else tally.accepted++;
  return outcome;
}

Deno.test("plan safety: renames and fixes on generated programs are refused with a reason or keep the program", () => {
  const started = performance.now();
  const tally: Tally = { requests: 0, accepted: 0, reasons: new Map(), backstop: [] };
  let fixes = 0;
  const load = (seed: number) => {
    const program = planProgram(seed);
    const files = new Map([...program.files].map(([path, text]) => [path, encoder.encode(text)]));
    const before = compileFiles(files);
    assertEquals(
      before.needsSyntaxRecovery,
      false,
      `seed ${seed}: ${before.diagnostics[0]?.message}`,
    );
    return { files, before, snapshot: snapshotDigest(snapshotOf(before)) };
  };
  for (const seed of RENAME_SEEDS) {
    const { files, before, snapshot } = load(seed);
    for (const target of targets(before)) {
      const compiled = before.files.find((f) => f.path === target.file)!;
      const position = compiled.lineIndex.position(target.offset);
      const fitting = (name: string) => /^[A-Z]/.test(name) === target.upper;
      const candidates = new Set<string>([target.upper ? "Fresh" : "fresh_name"]);
      for (const name of namesInScope(before, target)) if (fitting(name)) candidates.add(name);
      for (const name of PRELUDE) if (fitting(name)) candidates.add(name);
      candidates.delete(target.name);
      for (const newName of candidates) {
        const request: PatchRequest = {
          operation: "rename",
          file: target.file,
          position: { line: position.line, column: position.column },
          new_name: newName,
        };
        const outcome = plan(before, request, tally);
        if (outcome.kind === "answer") {
          const problem = recheckPlan(before, files, outcome.value, null, snapshot);
          assertEquals(problem, null, `seed ${seed}: ${target.name} -> ${newName}`);
        }
      }
    }
  }
  // The conflict checks are the mechanism: no rename reaches verification with a meaning change.
  const captures = tally.backstop.filter((line) => line.includes("would change what"));
  assertEquals(captures, [], "renames the conflict checks let through and verification refused");
  for (const seed of FIX_SEEDS) {
    const { files, before, snapshot } = load(seed);
    const index = indexOf(before);
    const state = sourceState(before);
    for (const entry of index.diagnostics) {
      const d = diagnosticById(before, entry.id);
      for (let fix = 0; fix < d.fixes.length; fix++) {
        fixes++;
        const outcome = plan(before, { operation: "fix", diagnostic: entry.id, fix, state }, tally);
        if (outcome.kind === "answer") {
          const problem = recheckPlan(before, files, outcome.value, d, snapshot);
          assertEquals(problem, null, `seed ${seed}: ${entry.id} fix ${fix}`);
        }
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `plan safety: ${tally.requests} requests (${fixes} fixes), ${tally.accepted} accepted and ` +
      `re-checked in ${seconds.toFixed(1)} s; refusals ${
        JSON.stringify(Object.fromEntries(tally.reasons))
      }`,
  );
  const shown = tally.backstop.slice(0, 5);
  for (const line of shown) console.log(`  verification refused ${line}`);
  if (tally.backstop.length > shown.length) {
    console.log(`  … and ${tally.backstop.length - shown.length} more refused by verification`);
  }
  assert(tally.requests >= 2000, `only ${tally.requests} requests`);
  assert(tally.accepted >= 200, `only ${tally.accepted} plans accepted`);
  assert(fixes >= 20, `only ${fixes} fixes planned`);
});
