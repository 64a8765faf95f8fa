/**
 * Verification of a plan before it is returned (docs/architecture.md
 * §7.31): the plan's edits are applied in memory, the edited compilation is
 * analysed through the same entry point as every fact, and compared with
 * the current one in three ways.
 *
 * 1. Diagnostics, as a multiset of (code, severity, file, owner) — places
 *    and messages left out, so that moved text and renamed names compare
 *    equal, and the owner's key read through the rename: none may be added;
 *    a fix must take its own diagnostic away.
 * 2. Resolution: every name that resolves — to a definition, a local or
 *    parameter (by its declaration's place), or to nothing of the
 *    compilation (the prelude, a module alias, an unknown name) — is
 *    compared at its place, mapped through the edits' offset shifts, both
 *    ways: a name outside the edited text must resolve as before, and no
 *    name outside it may start to resolve. A renamed occurrence must resolve
 *    to the renamed thing. A fix's own text is not compared, and a name
 *    reported unknown may resolve after a fix (an import it adds).
 * 3. Facts: after a rename, what every definition's snapshot sections but
 *    `source` and `diagnostics` digest (kind, shape, the keys of each
 *    relation), compared in the clear with the new key read as the old one;
 *    after a fix, the shape of every definition the edits do not touch.
 *
 * @module
 */
import type { Diagnostic, Json, Place, Span } from "../base/mod.ts";
import {
  CODES,
  type Compilation,
  type Definition,
  PRELUDE_FUNCTIONS,
  PRELUDE_TYPES,
  PRELUDE_VARIANTS,
} from "../semantics/mod.ts";
import { SECTIONS } from "../contracts/plain.ts";
import type { SectionName } from "../contracts/mod.ts";
import { compileEdited, type FactOptions } from "./source.ts";

/** One edit of a plan, in the current bytes; a plan's edits are sorted and do not overlap. */
export interface PlannedEdit {
  readonly file: string;
  readonly span: Span;
  readonly replacement: string;
}

/** What a plan changes, as verification needs to know it. */
export type PlannedChange =
  | {
    readonly kind: "definition";
    readonly key: string;
    readonly newKey: string;
    readonly name: string;
    readonly newName: string;
  }
  | { readonly kind: "local"; readonly owner: string; readonly name: string }
  | { readonly kind: "fix"; readonly diagnostic: Diagnostic };

/** What a passing plan's answer says was checked. */
export interface Verification {
  /** Files of the edited compilation, analysed (every file: the analysis is not incremental). */
  readonly files_analysed: number;
  readonly files_edited: number;
  /** Resolved names compared at their places, outside the edited text and at renamed names. */
  readonly references_compared: number;
  /** Diagnostics of the current compilation compared with the edited one's. */
  readonly diagnostics_compared: number;
  /** Definitions whose facts were compared. */
  readonly definitions_compared: number;
}

/** What a name resolves to, as a refusal reports it. */
export type Resolution =
  | { readonly kind: "definition"; readonly key: string }
  | {
    readonly kind: "local";
    readonly owner: string;
    readonly name: string;
    /** Its declaration, in the files as they are now. */
    readonly place: Place;
  }
  | { readonly kind: "prelude"; readonly name: string }
  | { readonly kind: "not_a_definition"; readonly name: string }
  | { readonly kind: "nothing" };

/** The first thing a plan would break or change, with places in the files as they are now. */
export type VerifyProblem =
  | {
    readonly reason: "would_break";
    readonly message: string;
    readonly problem: {
      readonly kind: "adds_diagnostic" | "keeps_diagnostic";
      readonly code: string;
      readonly severity: "error" | "warning";
      readonly message: string;
      readonly place: Place | null;
    };
  }
  | {
    readonly reason: "would_change_meaning";
    readonly message: string;
    readonly problem:
      | {
        readonly kind: "rebinds_reference";
        readonly name: string;
        readonly place: Place;
        readonly before: Resolution;
        readonly after: Resolution;
      }
      | {
        readonly kind: "changes_facts";
        readonly key: string;
        readonly sections: readonly SectionName[];
      };
  };

export type Verdict =
  | { readonly ok: true; readonly verification: Verification }
  | { readonly ok: false; readonly problem: VerifyProblem };

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Applies `edits` to `before` in memory and compares the edited compilation
 * with it. `before` needs no syntax recovery; `edits` are sorted by file and
 * offset and do not overlap.
 */
export function verifyPlan(
  before: Compilation,
  change: PlannedChange,
  edits: readonly PlannedEdit[],
  options: FactOptions = {},
): Verdict {
  const shifts = new EditShifts(before, edits, change.kind !== "fix");
  const after = compileEdited(before, shifts.editedFiles(), options);
  const keys = new KeyMap(change);
  const broken = compareDiagnostics(before, after, change, keys, shifts);
  if (broken !== null) return { ok: false, problem: broken };
  const resolution = compareResolution(before, after, change, keys, shifts);
  if (resolution.problem !== null) return { ok: false, problem: resolution.problem };
  const facts = compareFacts(before, after, change, shifts, resolution.resolvedByFix);
  if (facts.problem !== null) return { ok: false, problem: facts.problem };
  return {
    ok: true,
    verification: {
      files_analysed: after.files.length,
      files_edited: shifts.files.size,
      references_compared: resolution.compared,
      diagnostics_compared: before.diagnostics.length,
      definitions_compared: facts.compared,
    },
  };
}

// ---------------------------------------------------------------- offsets

/** The bytes with sorted, non-overlapping edits applied (their spans in these bytes). */
export function spliced(bytes: Uint8Array, edits: readonly PlannedEdit[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const edit of edits) {
    parts.push(bytes.subarray(at, edit.span.start), encoder.encode(edit.replacement));
    at = edit.span.end;
  }
  parts.push(bytes.subarray(at));
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

interface Shift {
  /** The edit in the current bytes. */
  readonly start: number;
  readonly end: number;
  /** Its replacement in the edited bytes. */
  readonly newStart: number;
  readonly newEnd: number;
  /**
   * Whether a name ending where the edit starts (`joinsLeft`), or starting
   * where it ends (`joinsRight`), could run into its text: always for a
   * replacement or deletion; for an insertion only when its text begins (or
   * ends) with a name character, as `_` before `x` makes `_x` and `: Int`
   * after `x` leaves `x` as it was.
   */
  readonly joinsLeft: boolean;
  readonly joinsRight: boolean;
}

const NAME_CHARACTER = /^[A-Za-z0-9_]$/;

/** Where a span of one side lands on the other. */
type Mapped =
  | { readonly kind: "kept"; readonly start: number; readonly end: number }
  /** Exactly the span of a renaming edit, or (edited side) inside its replacement. */
  | { readonly kind: "renamed"; readonly start: number; readonly end: number }
  /** Overlapping a fix's edit, or inside the text it inserts: the plan's own text. */
  | { readonly kind: "edited" };

/** The edits of a plan per file, and offsets mapped across them both ways. */
class EditShifts {
  readonly files = new Map<string, Shift[]>();
  readonly #before: Compilation;
  readonly #edits: readonly PlannedEdit[];
  /** A rename's edits each replace one occurrence of a name; a fix's are its own text. */
  readonly #renaming: boolean;

  constructor(before: Compilation, edits: readonly PlannedEdit[], renaming: boolean) {
    this.#before = before;
    this.#edits = edits;
    this.#renaming = renaming;
    let delta = 0;
    let file = "";
    for (const edit of edits) {
      if (edit.file !== file) {
        file = edit.file;
        delta = 0;
      }
      const length = encoder.encode(edit.replacement).length;
      const list = this.files.get(file) ?? [];
      const insertion = edit.span.start === edit.span.end;
      list.push({
        start: edit.span.start,
        end: edit.span.end,
        newStart: edit.span.start + delta,
        newEnd: edit.span.start + delta + length,
        joinsLeft: !insertion || NAME_CHARACTER.test(edit.replacement.slice(0, 1)),
        joinsRight: !insertion || NAME_CHARACTER.test(edit.replacement.slice(-1)),
      });
      this.files.set(file, list);
      delta += length - (edit.span.end - edit.span.start);
    }
  }

  /** The edited bytes of every file the plan touches. */
  editedFiles(): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const path of this.files.keys()) {
      const bytes = this.#before.files.find((f) => f.path === path)!.bytes;
      out.set(path, spliced(bytes, this.#edits.filter((e) => e.file === path)));
    }
    return out;
  }

  /** A span of the current bytes, on the edited side. */
  forward(file: string, start: number, end: number): Mapped {
    return this.#map(file, start, end, false);
  }

  /** A span of the edited bytes, on the current side. */
  back(file: string, start: number, end: number): Mapped {
    return this.#map(file, start, end, true);
  }

  /** Names are never empty, so a span is before an edit, after it, or overlaps it. */
  #map(file: string, start: number, end: number, fromEdited: boolean): Mapped {
    const shifts = this.files.get(file);
    if (shifts === undefined) return { kind: "kept", start, end };
    let delta = 0;
    for (const s of shifts) {
      const [from, to] = fromEdited ? [s.newStart, s.newEnd] : [s.start, s.end];
      const [otherFrom, otherTo] = fromEdited ? [s.start, s.end] : [s.newStart, s.newEnd];
      // A fix's text may run into a name next to it (`_` before `x` makes `_x`): a name that
      // touches a fix's edit there is the plan's own text too.
      const touchingLeft = !this.#renaming && s.joinsLeft ? 1 : 0;
      const touchingRight = !this.#renaming && s.joinsRight ? 1 : 0;
      if (end + touchingLeft <= from) break;
      if (start >= to + touchingRight) {
        delta += (otherTo - otherFrom) - (to - from);
        continue;
      }
      // A name a rename replaced: on the edited side the replacement holds the new name
      // (after `x: ` for a shorthand field); either way the whole edit is its other side.
      const renamed = fromEdited ? start >= from && end <= to : start === from && end === to;
      if (this.#renaming && renamed) return { kind: "renamed", start: otherFrom, end: otherTo };
      return { kind: "edited" };
    }
    return { kind: "kept", start: start + delta, end: end + delta };
  }

  /** A place in the files as they are now, for a span of either side. */
  place(file: string, span: Span, edited: boolean): Place | null {
    const mapped = edited
      ? this.back(file, span.start, span.end)
      : { kind: "kept" as const, ...span };
    const compiled = this.#before.files.find((f) => f.path === file);
    if (compiled === undefined || mapped.kind === "edited") return null;
    return compiled.lineIndex.place(file, { start: mapped.start, end: mapped.end });
  }
}

/** A rename's new key read as the old one; every other key as itself. */
class KeyMap {
  readonly #from: string | null;
  readonly #to: string | null;

  constructor(change: PlannedChange) {
    this.#from = change.kind === "definition" ? change.newKey : null;
    this.#to = change.kind === "definition" ? change.key : null;
  }

  back(key: string | null): string | null {
    return key !== null && key === this.#from ? this.#to : key;
  }
}

// ---------------------------------------------------------------- diagnostics

function owners(compilation: Compilation): Map<Diagnostic, string> {
  const out = new Map<Diagnostic, string>();
  for (const def of compilation.model.definitions) {
    for (const d of def.diagnostics) out.set(d, def.key);
  }
  return out;
}

function diagnosticKey(d: Diagnostic, owner: string | null): string {
  return `${d.code}\u0000${d.severity}\u0000${d.file ?? ""}\u0000${owner ?? ""}`;
}

function compareDiagnostics(
  before: Compilation,
  after: Compilation,
  change: PlannedChange,
  keys: KeyMap,
  shifts: EditShifts,
): VerifyProblem | null {
  const beforeOwners = owners(before);
  const count = new Map<string, number>();
  for (const d of before.diagnostics) {
    const key = diagnosticKey(d, beforeOwners.get(d) ?? null);
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  let fixed: string | null = null;
  if (change.kind === "fix") {
    fixed = diagnosticKey(change.diagnostic, beforeOwners.get(change.diagnostic) ?? null);
    count.set(fixed, count.get(fixed)! - 1);
  }
  const afterOwners = owners(after);
  let first: Diagnostic | null = null;
  for (const d of after.diagnostics) {
    const key = diagnosticKey(d, keys.back(afterOwners.get(d) ?? null));
    const left = count.get(key) ?? 0;
    if (left > 0) {
      count.set(key, left - 1);
      continue;
    }
    if (key === fixed && change.kind === "fix") {
      return broken("keeps_diagnostic", change.diagnostic, shifts, false);
    }
    first ??= d;
  }
  return first === null ? null : broken("adds_diagnostic", first, shifts, true);
}

function broken(
  kind: "adds_diagnostic" | "keeps_diagnostic",
  d: Diagnostic,
  shifts: EditShifts,
  edited: boolean,
): VerifyProblem {
  const place = d.file === null || d.span === null ? null : shifts.place(d.file, d.span, edited);
  const where = place === null
    ? d.file === null ? "" : ` in ${d.file} (in the text the plan writes)`
    : ` at ${place.file}:${place.start.line}:${place.start.column}`;
  const message = kind === "adds_diagnostic"
    ? `applied, the plan would add ${d.severity} ${d.code}${where}: ${d.message}`
    : `applied, the fix would leave its own ${d.code}${where}`;
  return {
    reason: "would_break",
    message,
    problem: { kind, code: d.code, severity: d.severity, message: d.message, place },
  };
}

// ---------------------------------------------------------------- resolution

/** A name that resolves, at a span of its file. */
interface Resolved {
  readonly start: number;
  readonly end: number;
  /** `d <key>`, `l <owner> <declaration offset>`, `o <name>`: compared as strings. */
  readonly id: string;
}

/** Every resolved name of a compilation in the files `only` names, per file, sorted by offset. */
function resolvedNames(
  compilation: Compilation,
  only: ReadonlySet<string>,
  keyOf: (key: string) => string,
  declarationOf: (file: string, span: Span) => number | null,
): Map<string, Resolved[]> {
  const out = new Map<string, Resolved[]>();
  const list = (file: string) => {
    let l = out.get(file);
    if (l === undefined) out.set(file, l = []);
    return l;
  };
  for (const file of only) {
    const l = list(file);
    for (const e of compilation.model.index[file] ?? []) {
      l.push({ start: e.start, end: e.end, id: `d ${keyOf(e.key)}` });
    }
  }
  for (const def of compilation.model.definitions) {
    if (!only.has(def.file)) continue;
    const l = list(def.file);
    const owner = keyOf(def.key);
    for (const b of def.bindings) {
      const declared = declarationOf(def.file, b.declSpan);
      // A local the plan's own text declares: nothing outside that text may refer to it.
      const id = declared === null
        ? `l ${owner} new@${b.declSpan.start}`
        : `l ${owner} ${declared}`;
      l.push({ start: b.declSpan.start, end: b.declSpan.end, id });
      for (const r of b.references) l.push({ start: r.span.start, end: r.span.end, id });
    }
    for (const o of def.outerNames) {
      if (o.key === null) l.push({ start: o.span.start, end: o.span.end, id: `o ${o.name}` });
    }
  }
  for (const l of out.values()) l.sort((a, b) => a.start - b.start || a.end - b.end);
  return out;
}

/**
 * The fast comparison of a file the plan does not edit: its index entries
 * (same places, same roles, keys read through the rename) and its
 * definitions' locals and unresolved names (same places, same names), in
 * the same order on both sides — what resolvedNames would compare, without
 * building it.
 */
class UneditedFiles {
  readonly #before: Compilation;
  readonly #after: Compilation;
  readonly #keys: KeyMap;
  readonly #beforeByFile = new Map<string, Definition[]>();
  readonly #afterByFile = new Map<string, Map<string, Definition>>();

  constructor(before: Compilation, after: Compilation, keys: KeyMap) {
    this.#before = before;
    this.#after = after;
    this.#keys = keys;
    for (const def of before.model.definitions) {
      const list = this.#beforeByFile.get(def.file) ?? [];
      list.push(def);
      this.#beforeByFile.set(def.file, list);
    }
    for (const def of after.model.definitions) {
      const map = this.#afterByFile.get(def.file) ?? new Map<string, Definition>();
      map.set(keys.back(def.key)!, def);
      this.#afterByFile.set(def.file, map);
    }
  }

  /** How many names the file resolves, when they all resolve alike on both sides; else null. */
  count(file: string): number | null {
    const a = this.#before.model.index[file] ?? [];
    const b = this.#after.model.index[file] ?? [];
    if (a.length !== b.length) return null;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (
        x.start !== y.start || x.end !== y.end || x.role !== y.role ||
        x.key !== this.#keys.back(y.key)
      ) return null;
    }
    let count = a.length;
    const defs = this.#beforeByFile.get(file) ?? [];
    const others = this.#afterByFile.get(file) ?? new Map<string, Definition>();
    if (defs.length !== others.size) return null;
    for (const x of defs) {
      const y = others.get(x.key);
      if (y === undefined || x.bindings.length !== y.bindings.length) return null;
      for (let i = 0; i < x.bindings.length; i++) {
        const p = x.bindings[i];
        const q = y.bindings[i];
        if (!sameSpan(p.declSpan, q.declSpan) || p.references.length !== q.references.length) {
          return null;
        }
        for (let j = 0; j < p.references.length; j++) {
          if (!sameSpan(p.references[j].span, q.references[j].span)) return null;
        }
        count += 1 + p.references.length;
      }
      const p = x.outerNames.filter((o) => o.key === null);
      const q = y.outerNames.filter((o) => o.key === null);
      if (p.length !== q.length) return null;
      for (let i = 0; i < p.length; i++) {
        if (!sameSpan(p[i].span, q[i].span) || p[i].name !== q[i].name) return null;
      }
      count += p.length;
    }
    return count;
  }
}

function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}

function compareResolution(
  before: Compilation,
  after: Compilation,
  change: PlannedChange,
  keys: KeyMap,
  shifts: EditShifts,
): { compared: number; problem: VerifyProblem | null; resolvedByFix: Occurrence[] } {
  const resolvedByFix: Occurrence[] = [];
  // What a fix is for: a name reported unknown (N0201) may resolve after it (an added
  // import). Never after a rename, where resolving a name that was unknown is a capture.
  const unknown = new Set<string>();
  if (change.kind === "fix") {
    for (const d of before.diagnostics) {
      if (d.code === CODES.unknownName && d.file !== null && d.span !== null) {
        unknown.add(`${d.file}:${d.span.start}:${d.span.end}`);
      }
    }
  }
  // An unedited file is compared in place, entry by entry, without building anything; only
  // an edited file, or one where that finds a difference, is compared name by name.
  let compared = 0;
  const slow = new Set(shifts.files.keys());
  const same = new UneditedFiles(before, after, keys);
  for (const file of before.files) {
    if (slow.has(file.path)) continue;
    const count = same.count(file.path);
    if (count === null) slow.add(file.path);
    else compared += count;
  }
  const beforeNames = resolvedNames(before, slow, (key) => key, (_file, span) => span.start);
  const afterNames = resolvedNames(after, slow, (key) => keys.back(key)!, (file, span) => {
    const m = shifts.back(file, span.start, span.end);
    return m.kind === "edited" ? null : m.start;
  });
  for (const file of [...slow].sort()) {
    const old = beforeNames.get(file) ?? [];
    const now = afterNames.get(file) ?? [];
    const was = new Map<string, string>();
    for (const r of old) {
      const m = shifts.forward(file, r.start, r.end);
      if (m.kind === "edited") continue;
      was.set(`${r.start}:${r.end}`, r.id);
    }
    const is = new Map<string, { id: string }>();
    for (const r of now) {
      const m = shifts.back(file, r.start, r.end);
      if (m.kind === "edited") continue;
      is.set(`${m.start}:${m.end}`, { id: r.id });
    }
    const spans = [...new Set([...was.keys(), ...is.keys()])].sort((a, b) => {
      const [as, ae] = a.split(":").map(Number);
      const [bs, be] = b.split(":").map(Number);
      return as - bs || ae - be;
    });
    for (const span of spans) {
      const beforeId = was.get(span) ?? null;
      const afterId = is.get(span)?.id ?? null;
      if (beforeId === afterId) {
        compared++;
        continue;
      }
      const [start, end] = span.split(":").map(Number);
      if (beforeId?.startsWith("o ") && unknown.has(`${file}:${span}`)) {
        resolvedByFix.push({ file, offset: start });
        compared++;
        continue;
      }
      return {
        compared,
        problem: rebound(before, file, { start, end }, beforeId, afterId),
        resolvedByFix,
      };
    }
  }
  return { compared, problem: null, resolvedByFix };
}

/** A place in a file of the current compilation, by offset. */
interface Occurrence {
  readonly file: string;
  readonly offset: number;
}

function rebound(
  before: Compilation,
  file: string,
  span: Span,
  beforeId: string | null,
  afterId: string | null,
): VerifyProblem {
  const compiled = before.files.find((f) => f.path === file)!;
  const place = compiled.lineIndex.place(file, span);
  const name = decoder.decode(compiled.bytes.subarray(span.start, span.end));
  const describe = (id: string | null): Resolution => resolution(before, id);
  const was = describe(beforeId);
  const is = describe(afterId);
  return {
    reason: "would_change_meaning",
    message:
      `applied, the plan would change what \`${name}\` at ${file}:${place.start.line}:${place.start.column} refers to: ${
        phrase(was)
      } now, ${phrase(is)} after`,
    problem: { kind: "rebinds_reference", name, place, before: was, after: is },
  };
}

function resolution(before: Compilation, id: string | null): Resolution {
  if (id === null) return { kind: "nothing" };
  const [tag, first, second] = id.split(" ");
  if (tag === "d") return { kind: "definition", key: first };
  if (tag === "o") {
    return PRELUDE_FUNCTIONS.has(first) || PRELUDE_VARIANTS.has(first) || PRELUDE_TYPES.has(first)
      ? { kind: "prelude", name: first }
      : { kind: "not_a_definition", name: first };
  }
  const owner = before.model.definitions.find((d) => d.key === first);
  const offset = Number(second);
  const binding = owner?.bindings.find((b) => b.declSpan.start === offset);
  if (owner === undefined || binding === undefined) {
    // Declared by the plan's own text.
    return { kind: "nothing" };
  }
  const compiled = before.files.find((f) => f.path === owner.file)!;
  return {
    kind: "local",
    owner: owner.key,
    name: binding.name,
    place: compiled.lineIndex.place(owner.file, binding.declSpan),
  };
}

function phrase(r: Resolution): string {
  switch (r.kind) {
    case "definition":
      return `the definition ${r.key}`;
    case "local":
      return `the local \`${r.name}\` of ${r.owner} declared at ${r.place.file}:${r.place.start.line}:${r.place.start.column}`;
    case "prelude":
      return `the prelude's \`${r.name}\``;
    case "not_a_definition":
      return `\`${r.name}\`, no definition of the compilation (a module alias or an unknown name)`;
    case "nothing":
      return "nothing";
  }
}

// ---------------------------------------------------------------- facts

/**
 * Compares what every snapshot section but `source` digests, in the clear:
 * the shape and the keys of each relation (the sections that hold linked
 * shapes change exactly when a linked definition's own shape does, which is
 * compared as that definition's `shape`). Diagnostics were compared above.
 */
function compareFacts(
  before: Compilation,
  after: Compilation,
  change: PlannedChange,
  shifts: EditShifts,
  resolvedByFix: readonly Occurrence[],
): { compared: number; problem: VerifyProblem | null } {
  const keyOf = (key: string) =>
    change.kind === "definition" && key === change.newKey ? change.key : key;
  const now = new Map(after.model.definitions.map((d) => [keyOf(d.key), d]));
  // A fix may change the definitions its edits touch, and those holding a name it resolved
  // (an import it adds); every other one keeps its shape.
  const touched = (def: Definition): boolean => {
    if (change.kind !== "fix") return false;
    const edits = shifts.files.get(def.file) ?? [];
    const inside = (offset: number) => def.span.start <= offset && offset <= def.span.end;
    return edits.some((e) => e.start <= def.span.end && e.end >= def.span.start) ||
      resolvedByFix.some((o) => o.file === def.file && inside(o.offset));
  };
  let compared = 0;
  const changed = (key: string, sections: SectionName[], what: string) => ({
    compared,
    problem: {
      reason: "would_change_meaning" as const,
      message: `applied, the plan would change other facts than the name: ${key} ${what}`,
      problem: { kind: "changes_facts" as const, key, sections },
    },
  });
  for (const a of before.model.definitions) {
    const b = now.get(a.key);
    if (b === undefined) return changed(a.key, [...SECTIONS], "would disappear");
    now.delete(a.key);
    if (touched(a)) continue;
    const name = change.kind === "definition" && a.key === change.key ? change.name : b.name;
    const sections: SectionName[] = [];
    if (a.kind !== b.kind || a.name !== name || !sameShape(a.shape, b.shape, keyOf, name)) {
      sections.push("shape");
    }
    if (change.kind !== "fix") {
      const same = (x: readonly { key: string }[], y: readonly { key: string }[]) => {
        if (x.length !== y.length) return false;
        const mapped = y.map((l) => keyOf(l.key)).sort();
        return x.every((l, i) => l.key === mapped[i]);
      };
      if (!same(a.uses, b.uses)) sections.push("dependencies");
      if (!same(a.types, b.types)) sections.push("related_types");
      if (!same(a.usedBy, b.usedBy)) sections.push("references");
      if (!same(a.calledBy, b.calledBy)) sections.push("callers");
      if (!same(a.calls, b.calls)) sections.push("callees");
    }
    if (sections.length > 0) {
      return changed(a.key, sections, `would change in ${sections.join(", ")}`);
    }
    compared++;
  }
  for (const key of now.keys()) return changed(key, [...SECTIONS], "would appear");
  return { compared, problem: null };
}

/** Whether two shapes are equal, the second's keys read through `keyOf` and its name as `name`. */
function sameShape(a: Json, b: Json, keyOf: (key: string) => string, name: string): boolean {
  const equal = (x: Json, y: Json, top: boolean): boolean => {
    if (typeof x === "string") return typeof y === "string" && x === keyOf(y);
    if (x === null || typeof x !== "object") return x === y;
    if (Array.isArray(x)) {
      return Array.isArray(y) && x.length === y.length && x.every((v, i) => equal(v, y[i], false));
    }
    if (y === null || typeof y !== "object" || Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    return keys.every((k) =>
      k in y && (top && k === "name" ? x[k] === name : equal(x[k], y[k], false))
    );
  };
  return equal(a, b, true);
}
