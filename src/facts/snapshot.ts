/**
 * nazm.snapshot/4 and nazm.delta/2 (docs/architecture.md §7.30).
 *
 * Only the `source` digest depends on bytes. Every other section is a
 * digest of durable identities (keys, kinds, names, type structure,
 * diagnostic codes), so a comment or a changed literal changes `source`
 * alone. The sections that point at other definitions (dependencies,
 * related types, callees) include each target's shape digest: a changed
 * signature is a real change to every definition that relies on it, and
 * shows in theirs too. Sections that point back (references, callers) hold
 * keys only: who relies on a definition does not depend on their shapes.
 *
 * @module
 */
import {
  blake3,
  blake3Canonical,
  canonicalJson,
  COMPILER,
  countKeys,
  isDigest,
  scanJson,
} from "../base/mod.ts";
import type { Compilation, Link } from "../semantics/mod.ts";
import { answer, DEFINITION_KEY, refuse, SECTIONS } from "../contracts/plain.ts";
import type {
  BASELINE_PROBLEMS,
  Delta,
  DeltaReason,
  Outcome,
  Snapshot,
  SnapshotDefinition,
  SnapshotReason,
} from "../contracts/mod.ts";
import {
  compileRoot,
  type FactOptions,
  type RootConfig,
  type RootIdentity,
  rootIdentity,
  UNSUPPORTED,
} from "./source.ts";

/** The largest baseline accepted, in bytes of its JSON text. */
export const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

/** The snapshot of the root's compilation on disk now. */
export function semanticSnapshot(
  config: RootConfig,
  options: FactOptions = {},
): Outcome<Snapshot, SnapshotReason> {
  const compilation = compileRoot(config, options);
  const refusal = unavailable(compilation);
  return refusal ?? answer(snapshotOf(compilation));
}

/** A snapshot's digest: BLAKE3 of its canonical JSON. */
export function snapshotDigest(snapshot: Snapshot): string {
  return blake3Canonical(snapshot);
}

function unavailable(compilation: Compilation): Outcome<never, SnapshotReason> | null {
  if (compilation.rootError !== null) {
    return refuse("unavailable", "root_unreadable", "the root file cannot be read now");
  }
  if (compilation.needsSyntaxRecovery) {
    return refuse(
      "unavailable",
      "syntax_recovery",
      "the compilation has syntax errors, so it has no snapshot; nazm.diagnostics lists them",
    );
  }
  return null;
}

/** The snapshot of a loaded compilation (which must not need syntax recovery). */
export function snapshotOf(compilation: Compilation): Snapshot {
  const files = new Map(compilation.files.map((f) => [f.path, f.bytes]));
  const shapes = new Map<string, string>();
  for (const def of compilation.model.definitions) {
    shapes.set(def.key, blake3(canonicalJson(def.shape)));
  }
  const withShapes = (links: readonly Link[]) =>
    links.map((link) => [link.key, shapes.get(link.key) ?? null]);
  const keysOf = (links: readonly Link[]) => links.map((link) => link.key);
  const definitions: Record<string, SnapshotDefinition> = {};
  for (const def of compilation.model.definitions) {
    const bytes = files.get(def.file);
    if (bytes === undefined) {
      throw new Error(`definition in a file that was not loaded: ${def.file}`);
    }
    const digestOf = (value: unknown) => blake3(canonicalJson(value));
    definitions[def.key] = {
      kind: def.kind,
      name: def.name,
      module: def.module,
      digests: {
        source: blake3(bytes.subarray(def.span.start, def.span.end)),
        shape: shapes.get(def.key)!,
        dependencies: digestOf(withShapes(def.uses)),
        related_types: digestOf(withShapes(def.types)),
        references: digestOf(keysOf(def.usedBy)),
        callers: digestOf(keysOf(def.calledBy)),
        callees: digestOf(withShapes(def.calls)),
        diagnostics: digestOf(
          def.diagnostics.map((d) => [d.code, d.severity]).sort((a, b) =>
            a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0
          ),
        ),
      },
    };
  }
  return {
    schema: "nazm.snapshot/4",
    root: rootIdentity(compilation),
    compiler: COMPILER,
    definitions,
    unsupported: [...UNSUPPORTED],
  };
}

// ---------------------------------------------------------------- delta

/** Why a baseline is not accepted, with where in it. */
export interface BaselineProblem {
  readonly problem: (typeof BASELINE_PROBLEMS)[number];
  readonly path: string;
  readonly message: string;
}

const TOP_FIELDS = ["schema", "root", "compiler", "definitions", "unsupported"];
const ROOT_FIELDS = ["module", "file", "source_root"];
const DEFINITION_FIELDS = ["kind", "name", "module", "digests"];
const KINDS = ["function", "record", "enum"];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unknownField(
  value: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
): BaselineProblem | null {
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) {
      return {
        problem: "unknown_field",
        path: `${path}.${field}`,
        message: `the baseline has a field no snapshot has: ${path}.${field}`,
      };
    }
  }
  return null;
}

/**
 * The problem with a baseline's `root`, or null when it is this root: the
 * same module, the same root file, and the same source root (by digest) —
 * another program whose root module is also `main` is another root.
 */
function checkRoot(value: unknown, root: RootIdentity): BaselineProblem | null {
  if (!isPlainObject(value)) {
    return {
      problem: "not_a_snapshot",
      path: "$.root",
      message: "the baseline is not a nazm.snapshot/4 object: its root is not an identity object",
    };
  }
  const extra = unknownField(value, ROOT_FIELDS, "$.root");
  if (extra !== null) return extra;
  for (const field of ROOT_FIELDS) {
    if (typeof value[field] !== "string") {
      return {
        problem: "not_a_snapshot",
        path: `$.root.${field}`,
        message: `the baseline is not a nazm.snapshot/4 object: its root has no ${field}`,
      };
    }
  }
  if (!isDigest(value.source_root)) {
    return {
      problem: "bad_digest",
      path: "$.root.source_root",
      message: "a digest is not a lowercase hex BLAKE3-256",
    };
  }
  const other = (path: string, message: string): BaselineProblem => ({
    problem: "other_root",
    path,
    message,
  });
  if (value.module !== root.module) {
    return other(
      "$.root.module",
      `the baseline is a snapshot of root module \`${value.module}\`, not \`${root.module}\``,
    );
  }
  if (value.file !== root.file) {
    return other(
      "$.root.file",
      `the baseline is a snapshot of root file \`${value.file}\`, not \`${root.file}\``,
    );
  }
  if (value.source_root !== root.source_root) {
    return other(
      "$.root.source_root",
      `the baseline is a snapshot of another program whose root is also \`${root.file}\`: its source root is not this one`,
    );
  }
  return null;
}

/**
 * Checks a baseline strictly, before any comparison: it must be exactly a
 * nazm.snapshot/4 of this root by this compiler. Anything else is refused
 * with the first problem found; nothing is compared "as well as it can be",
 * and a string is never read as a path.
 */
export function checkBaseline(baseline: unknown, root: RootIdentity): BaselineProblem | null {
  const notSnapshot = (path: string, what: string): BaselineProblem => ({
    problem: "not_a_snapshot",
    path,
    message: `the baseline is not a nazm.snapshot/4 object: ${what}`,
  });
  if (!isPlainObject(baseline)) {
    return notSnapshot(
      "$",
      `it is ${Array.isArray(baseline) ? "an array" : typeof baseline}, not an object`,
    );
  }
  if (baseline.schema !== "nazm.snapshot/4") {
    return notSnapshot(
      "$.schema",
      typeof baseline.schema === "string" && baseline.schema.startsWith("nazm.snapshot/")
        ? `it is a ${baseline.schema}, which does not identify its root: take a new snapshot`
        : "its schema is not nazm.snapshot/4",
    );
  }
  const otherRoot = checkRoot(baseline.root, root);
  if (otherRoot !== null) return otherRoot;
  if (typeof baseline.compiler !== "string") {
    return notSnapshot("$.compiler", "it names no compiler");
  }
  if (baseline.compiler !== COMPILER) {
    return {
      problem: "other_compiler",
      path: "$.compiler",
      message: `the baseline was made by ${baseline.compiler}, not ${COMPILER}`,
    };
  }
  const top = unknownField(baseline, TOP_FIELDS, "$");
  if (top !== null) return top;
  if (!isPlainObject(baseline.definitions)) {
    return notSnapshot("$.definitions", "it has no definitions object");
  }
  if (
    !Array.isArray(baseline.unsupported) ||
    canonicalJson(baseline.unsupported) !== canonicalJson(UNSUPPORTED)
  ) {
    return notSnapshot("$.unsupported", "its unsupported list is not this compiler's");
  }
  for (const [key, entry] of Object.entries(baseline.definitions)) {
    const path = `$.definitions[${JSON.stringify(key)}]`;
    if (!DEFINITION_KEY.test(key)) {
      return {
        problem: "malformed_key",
        path,
        message: `\`${key}\` is not a definition key (module.path::name)`,
      };
    }
    if (!isPlainObject(entry)) return notSnapshot(path, "a definition is not an object");
    const extra = unknownField(entry, DEFINITION_FIELDS, path);
    if (extra !== null) return extra;
    if (typeof entry.kind !== "string" || !KINDS.includes(entry.kind)) {
      return notSnapshot(`${path}.kind`, "a definition's kind is not function, record or enum");
    }
    const separator = key.lastIndexOf("::");
    const name = key.slice(separator + 2).replace(/#\d+$/, "");
    if (entry.module !== key.slice(0, separator) || entry.name !== name) {
      return {
        problem: "malformed_key",
        path,
        message: `the key \`${key}\` does not agree with the definition's module and name`,
      };
    }
    if (!isPlainObject(entry.digests)) {
      return notSnapshot(`${path}.digests`, "a definition has no digests");
    }
    const digests = entry.digests;
    const extraDigest = unknownField(digests, SECTIONS, `${path}.digests`);
    if (extraDigest !== null) return extraDigest;
    for (const section of SECTIONS) {
      if (!(section in digests)) {
        return notSnapshot(`${path}.digests.${section}`, `a digest is missing`);
      }
      if (!isDigest(digests[section])) {
        return {
          problem: "bad_digest",
          path: `${path}.digests.${section}`,
          message: "a digest is not a lowercase hex BLAKE3-256",
        };
      }
    }
  }
  return null;
}

/** The delta from `baseline` to the root's compilation on disk now. */
export function semanticDelta(
  config: RootConfig,
  baseline: unknown,
  options: FactOptions = {},
): Outcome<Delta, DeltaReason> {
  const compilation = compileRoot(config, options);
  if (compilation.rootError !== null) return unavailable(compilation)!;
  const problem = checkBaseline(baseline, rootIdentity(compilation));
  if (problem !== null) return refuseBaseline(problem);
  const refusal = unavailable(compilation);
  if (refusal !== null) return refusal;
  return answer(deltaBetween(baseline as Snapshot, snapshotOf(compilation)));
}

/** The deepest a baseline may nest: a snapshot nests 3 levels (definitions, one, its digests). */
export const MAX_BASELINE_DEPTH = 16;

/** The most JSON values a baseline may hold: a 64 MiB snapshot holds about 1.3 million. */
export const MAX_BASELINE_VALUES = 4_000_000;

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
// ASCII is UTF-8 already, and this decoder is about three times faster.
const asciiText = new TextDecoder();

/**
 * A baseline from the bytes of its JSON text — as `nazm delta` reads a file,
 * and as the server receives it, cut out of its message unparsed. Refused
 * with a reason, before anything parses or walks it: over the size limit,
 * nested deeper or holding more values than a snapshot ever does (found by
 * one scan without recursion, so a 5,000-deep `[[[…]]]` is a refusal, not a
 * stack overflow), not UTF-8, not JSON, or repeating a key.
 */
export function readBaseline(bytes: Uint8Array): Outcome<unknown, DeltaReason> {
  const tooLarge = baselineSize(bytes.length);
  if (tooLarge !== null) return refuseBaseline(tooLarge);
  const scan = scanJson(bytes, {
    maxDepth: MAX_BASELINE_DEPTH,
    maxValues: MAX_BASELINE_VALUES,
    keys: "count",
  });
  if (scan.tooDeep !== null) {
    return refuseBaseline({
      problem: "not_a_snapshot",
      path: scan.tooDeep,
      message:
        `the baseline nests deeper than ${MAX_BASELINE_DEPTH} levels, which no snapshot does (at ${scan.tooDeep})`,
    });
  }
  if (scan.tooManyValues) {
    return refuseBaseline({
      problem: "too_large",
      path: "$",
      message:
        `the baseline holds more than ${MAX_BASELINE_VALUES} JSON values, over the limit (a 64 MiB snapshot holds about 1.3 million)`,
    });
  }
  let baseline: unknown;
  try {
    baseline = JSON.parse((scan.ascii ? asciiText : strictUtf8).decode(bytes));
  } catch {
    return refuseBaseline({
      problem: "not_a_snapshot",
      path: "$",
      message: "the baseline is not JSON",
    });
  }
  if (countKeys(baseline) !== scan.keyCount) {
    // JSON.parse kept one of a repeated key's values: find where, exactly.
    const path = scanJson(bytes).duplicateKey ?? "$";
    return refuseBaseline({
      problem: "duplicate_key",
      path,
      message: `the baseline repeats a key: ${path}`,
    });
  }
  return answer(baseline);
}

/** The problem with a baseline whose JSON text is `bytes` long, if it is over the limit. */
export function baselineSize(bytes: number): BaselineProblem | null {
  if (bytes <= MAX_BASELINE_BYTES) return null;
  return {
    problem: "too_large",
    path: "$",
    message: `baseline is ${bytes} bytes of JSON, over the limit of ${MAX_BASELINE_BYTES} (64 MiB)`,
  };
}

/** The refusal of a baseline that is not accepted. */
export function refuseBaseline(problem: BaselineProblem): Outcome<never, DeltaReason> {
  return refuse("refused", "invalid_baseline", problem.message, {
    problem: problem.problem,
    path: problem.path,
  });
}

/** What changed between two snapshots of the same root: keys sorted, sections in published order. */
export function deltaBetween(baseline: Snapshot, current: Snapshot): Delta {
  const before = baseline.definitions;
  const after = current.definitions;
  const added = Object.keys(after).filter((key) => !Object.hasOwn(before, key)).sort();
  const removed = Object.keys(before).filter((key) => !Object.hasOwn(after, key)).sort();
  const changed = Object.keys(after)
    .filter((key) => Object.hasOwn(before, key))
    .sort()
    .flatMap((key) => {
      const old = before[key];
      const now = after[key];
      const sections = SECTIONS.filter((section) =>
        old.digests[section] !== now.digests[section] ||
        (section === "shape" && old.kind !== now.kind)
      );
      return sections.length === 0 ? [] : [{ key, sections }];
    });
  return {
    schema: "nazm.delta/2",
    root: current.root,
    compiler: current.compiler,
    baseline: snapshotDigest(baseline),
    current: snapshotDigest(current),
    added,
    removed,
    changed,
    unsupported: [...UNSUPPORTED],
  };
}
