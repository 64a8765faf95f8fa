/**
 * The incremental engine: the analysis of a compilation computed from the
 * last one, redoing only the work that depends on what changed. Its one
 * input is the file contents of the compilation (a {@link Sources}, from
 * disk or from editor buffers over disk); `compile` hands it the parsed
 * files, each parsed only when its content digest is new (the parse cache).
 *
 * Per module it keeps what checking that module produced (its side-table
 * entries, diagnostics, model part) and what the check read: the modules
 * whose interface it consulted and the other files its diagnostics point
 * into. A module is checked again when its bytes changed, when a file its
 * diagnostics point into changed, or when the interface of a module it read
 * changed — early cut-off: a body edit leaves the module's interface
 * (exported names, kinds, signatures, type definitions) as it was, so no
 * other module is checked again. Binding and linking (cheap, one pass over
 * top-level names) and the program checks (one pass over the references)
 * run whole; the model is patched: the checked modules' parts are rebuilt
 * and `usedBy` / `calledBy` are recomputed only for the definitions the
 * changed modules referred to, before or now.
 *
 * The answer is the same as a whole analysis's, byte for byte
 * (tests/semantics/engine_test.ts checks it on random edit sequences).
 *
 * @module
 */
import { blake3Framed, type Diagnostic } from "../base/mod.ts";
import { bindModule, type DefInfo, type ModuleInfo, moduleOfKey } from "./binder.ts";
import {
  checkSome,
  EXPORTED_NAMES,
  type ModuleCheck,
  type ReusedEntry,
  type ReusedModule,
} from "./checker.ts";
import type { Analysis, ParsedModules } from "./analysis.ts";
import { moduleStatus, sortDiagnostics } from "./analysis.ts";
import type { CheckResult, DefTable, Signature } from "./links.ts";
import { linkModule, type LinkResult } from "./linker.ts";
import {
  assembleModel,
  type Definition,
  findDefinition,
  importIndex,
  type IndexEntry,
  type Link,
  type ModelPart,
  modelPart,
  type Occurrence,
  type Reverse,
  reverseLinks,
  type SemanticModel,
} from "./model.ts";
import { checkProgram, referencedKeys } from "./program.ts";
import type { Resolutions } from "./resolutions.ts";
import type { Type } from "./types.ts";

/**
 * What a long-lived caller keeps between analyses (the server's worker, a
 * language server): the last analysis and what it can reuse.
 */
export interface Engine {
  state: EngineState | null;
  /** Which modules the last analysis checked and which it reused (tests, benchmarks). */
  report: EngineReport | null;
}

/** A new engine: its first analysis is a whole one. */
export function newEngine(): Engine {
  return { state: null, report: null };
}

/** What one analysis leaves for the next. */
export interface EngineState {
  /** Everything the analysis depended on, digested (compile.ts's analysis key). */
  readonly key: string;
  readonly analysis: Analysis;
  /** Per module path, what checking it produced and read. */
  readonly records: ReadonlyMap<string, ModuleRecord>;
  /**
   * Per module path, its interface (compared whole): present modules' (see
   * {@link interfaceOf}), {@link FAILED} for a file that could not be parsed;
   * absent means no such module. {@link EXPORTED_NAMES} holds the table of
   * exported names.
   */
  readonly interfaces: ReadonlyMap<string, Interface>;
  /** The model's parts and the model, once someone asked for the model. */
  model: { readonly parts: ReadonlyMap<string, ModelPart>; readonly model: SemanticModel } | null;
  /** Every module as bound and linked, for the next committed analysis to keep. */
  readonly bound: BoundModules;
}

/** The modules of one analysis, bound and linked, and what binding and linking said. */
interface BoundModules {
  /** The modules and failed modules, in order: only the same shape is reused. */
  readonly shape: string;
  readonly modules: ReadonlyMap<string, BoundModule>;
}

interface BoundModule {
  readonly info: ModuleInfo;
  readonly digest: string;
  readonly bindDiagnostics: readonly Diagnostic[];
  readonly linkDiagnostics: readonly Diagnostic[];
  /** Its share of {@link LinkResult.namedFromOutside}. */
  readonly namedFromOutside: readonly DefInfo[];
  /**
   * Its imported names' index entries as linked (model.ts `importIndex`):
   * a later analysis may link the module again in place before this one's
   * model is first read.
   */
  readonly imports: readonly IndexEntry[];
}

/** A module's check, reusable while its inputs are unchanged. */
interface ModuleRecord {
  readonly path: string;
  /** BLAKE3 of its bytes when checked. */
  readonly digest: string;
  readonly check: ModuleCheck;
  /** Side-table entries of its definitions (duplicates included), by key. */
  readonly defs: ReadonlyMap<string, ReusedEntry>;
  /** Side-table entries of its tests, by key (a test may share a function's name). */
  readonly tests: ReadonlyMap<string, ReusedEntry>;
  /** Other files its diagnostics point into, with their digests then. */
  readonly spanFiles: ReadonlyMap<string, string | null>;
  readonly iface: Interface;
  /** {@link exportedNames}: a binder fact of its bytes. */
  readonly exports: string;
  /** What its definitions and tests refer to (program.ts `referencedKeys`). */
  readonly referenced: ReadonlySet<string>;
}

/** The modules checked (not reused) by the last {@link analyzeIncrementally}: for tests and benchmarks. */
export interface EngineReport {
  readonly checked: readonly string[];
  readonly reused: readonly string[];
}

/**
 * The analysis of `parsed`, reusing `engine`'s last one; the engine keeps
 * the new one when `commit` (a verification of a planned edit does not: its
 * compilation is not the disk's).
 */
export function analyzeIncrementally(
  engine: Engine,
  parsed: ParsedModules,
  key: string,
  commit: boolean,
): Analysis {
  const prev = engine.state;
  if (prev !== null && prev.key === key) {
    engine.report = { checked: [], reused: [...prev.records.keys()] };
    return prev.analysis;
  }
  let state: EngineState;
  try {
    state = analyzeFrom(prev, parsed, key, commit, (r) => engine.report = r);
  } catch (error) {
    // A committed analysis may have linked the last one's modules again in
    // place (bindAndLink): after a failure halfway they are no one's state.
    if (commit) engine.state = null;
    throw error;
  }
  if (commit) engine.state = state;
  return state.analysis;
}

/**
 * The checker's resolutions of one module of `analysis` (compile.ts
 * `resolve`): that module alone checked again with them, every other
 * module's results taken from the engine's records as they are — what an
 * editor reads at one place (an inferred type, a member) for one module's
 * price rather than a whole analysis's. Nothing the engine keeps changes:
 * the check writes only its own side tables. Null when `analysis` is not
 * the engine's last committed one (a later analysis may have linked its
 * modules again in place) or has no such module. For the module's nodes
 * they are the resolutions a whole analysis with `resolve` records
 * (tests/semantics/engine_test.ts).
 */
export function resolveModule(
  engine: Engine,
  analysis: Analysis,
  module: string,
): Resolutions | null {
  const state = engine.state;
  if (state === null || state.analysis !== analysis) return null;
  if (!state.bound.modules.has(module) || !state.records.has(module)) return null;
  const bound = [...state.bound.modules.values()];
  const namedFromOutside = new Set(bound.flatMap((b) => b.namedFromOutside));
  const { result } = checkSome(bound.map((b) => b.info), { namedFromOutside }, { resolve: true }, {
    reused: (m) => m.name === module ? null : reusedModule(state.records.get(m.name)!),
    recheck: () => [],
  });
  return result.resolutions;
}

function analyzeFrom(
  prev: EngineState | null,
  parsed: ParsedModules,
  key: string,
  commit: boolean,
  report: (r: EngineReport) => void,
): EngineState {
  const diagnostics: Diagnostic[] = [];
  const digests = new Map<string, string>();
  for (const f of parsed.files) digests.set(f.path, f.digest);
  // Only a committed analysis may link the last one's modules again: it
  // replaces that analysis, where a verification's must leave it whole.
  const { modules, linked, bound } = bindAndLink(
    parsed,
    commit ? prev?.bound ?? null : null,
    diagnostics,
  );
  const interfaces = new Map<string, Interface>();
  for (const name of parsed.failed) interfaces.set(name, FAILED);
  interfaces.set(
    EXPORTED_NAMES,
    knownInterface(blake3Framed(modules.map((m) => {
      const record = prev?.records.get(m.name);
      return record !== undefined && record.path === m.file &&
          record.digest === digests.get(m.file)
        ? record.exports
        : exportedNames(m);
    }))),
  );
  // Whether a module's interface differs from the last analysis's. Only
  // then is either digest made: a whole analysis compares none, and an edit
  // only those of the modules it checks.
  const differs = (name: string, now: Interface | undefined) => {
    const was = prev?.interfaces.get(name);
    return was !== now && (was === undefined || now === undefined || was.digest !== now.digest);
  };
  // Interfaces known to differ before any checking: modules gone, failed or
  // back, and the exported names (a binder fact).
  const changed = new Set<string>();
  if (prev !== null) {
    const present = new Set(modules.map((m) => m.name));
    for (const name of prev.interfaces.keys()) {
      if (!present.has(name) && differs(name, interfaces.get(name))) changed.add(name);
    }
    for (const [name, iface] of interfaces) if (differs(name, iface)) changed.add(name);
  }
  const readsChanged = (check: ModuleCheck) => {
    for (const name of check.reads) if (changed.has(name)) return true;
    return false;
  };

  const records = new Map<string, ModuleRecord>();
  const reusedNow = new Set<ModuleInfo>();
  const { result, modules: perModule } = checkSome(modules, linked, {}, {
    reused(m) {
      const record = prev?.records.get(m.name);
      if (record === undefined || record.path !== m.file) return null;
      if (record.digest !== digests.get(m.file)) return null;
      for (const [file, digest] of record.spanFiles) {
        if ((digests.get(file) ?? null) !== digest) return null;
      }
      if (readsChanged(record.check)) return null;
      reusedNow.add(m);
      records.set(m.name, record);
      interfaces.set(m.name, record.iface);
      return reusedModule(record);
    },
    recheck(batch, signatures) {
      for (const m of batch) {
        const iface = interfaceOf(m, signatures);
        interfaces.set(m.name, iface);
        if (prev !== null && differs(m.name, iface)) changed.add(m.name);
      }
      const again: ModuleInfo[] = [];
      for (const m of reusedNow) {
        if (readsChanged(records.get(m.name)!.check)) again.push(m);
      }
      for (const m of again) {
        reusedNow.delete(m);
        records.delete(m.name);
      }
      return again;
    },
  });
  const checked: ModuleInfo[] = modules.filter((m) => !reusedNow.has(m));
  for (const m of checked) {
    records.set(m.name, newRecord(m, perModule.get(m)!, result, interfaces.get(m.name)!, digests));
  }
  for (const m of modules) diagnostics.push(...perModule.get(m)!.diagnostics);
  checkProgram(
    modules,
    parsed.rootModule,
    result,
    diagnostics,
    (m) => records.get(m.name)!.referenced,
  );
  const sorted = sortDiagnostics([...parsed.diagnostics, ...diagnostics]);
  report({
    checked: checked.map((m) => m.name),
    reused: modules.filter((m) => reusedNow.has(m)).map((m) => m.name),
  });

  // The last model as it is now, not the last state: a state never holds its predecessor.
  const prevModel = prev?.model ?? null;
  const gone = prev === null
    ? []
    : [...prev.records.keys()].filter((name) => !modules.some((m) => m.name === name));
  return newState(
    key,
    records,
    interfaces,
    bound,
    prevModel,
    modules,
    checked,
    gone,
    result,
    sorted,
  );
}

/**
 * Binds and links the modules of `parsed`. With `last` (the last committed
 * analysis's, of the same modules), a module whose bytes did not change
 * keeps its bound module, the very objects, with what binding and linking
 * said of it; a changed module is bound again; and a kept module that
 * imports a changed one (its links point at definitions that are now other
 * objects, its diagnostics at their old places) or a module that is missing
 * or failed (whose help reads the modules around it) is linked again, in
 * place. Binding and linking work module by module, so the modules and
 * diagnostics are those of binding and linking everything again, in the
 * same order; keeping the objects keeps their keys' hashes too (measured:
 * binding the generated 100,000-line program's 201 modules again costs
 * about 10 ms, a third of a body edit's analysis).
 */
function bindAndLink(
  parsed: ParsedModules,
  last: BoundModules | null,
  diagnostics: Diagnostic[],
): { modules: ModuleInfo[]; linked: LinkResult; bound: BoundModules } {
  const shape = [
    ...parsed.files.map((f) => `${f.module}\u0000${f.path}`),
    ...[...parsed.failed].sort(),
  ].join("\u0001") + `\u0002${parsed.failed.size}`;
  const reusable = last !== null && last.shape === shape ? last.modules : null;
  const kept = new Map<string, BoundModule>();
  const fresh = new Map<
    string,
    { info: ModuleInfo; digest: string; bindDiagnostics: Diagnostic[] }
  >();
  for (const f of parsed.files) {
    const before = reusable?.get(f.module);
    if (before !== undefined && before.digest === f.digest && before.info.tree === f.parse.tree) {
      kept.set(f.module, before);
    } else {
      const bindDiagnostics: Diagnostic[] = [];
      const info = bindModule(f.module, f.path, f.bytes, f.parse.tree, bindDiagnostics);
      fresh.set(f.module, { info, digest: f.digest, bindDiagnostics });
    }
  }
  const modules = parsed.files.map((f) => (kept.get(f.module) ?? fresh.get(f.module)!).info);
  const lookup = moduleStatus(modules, parsed.failed);
  const modulesOut = new Map<string, BoundModule>();
  for (const m of modules) {
    const before = kept.get(m.name);
    if (
      before !== undefined &&
      m.imports.every((i) => !fresh.has(i.moduleName) && typeof lookup(i.moduleName) === "object")
    ) {
      modulesOut.set(m.name, before);
      continue;
    }
    if (before !== undefined) unlink(m);
    const { digest, bindDiagnostics } = before ?? fresh.get(m.name)!;
    const linkDiagnostics: Diagnostic[] = [];
    const named = new Set<DefInfo>();
    linkModule(m, lookup, linkDiagnostics, named);
    modulesOut.set(m.name, {
      info: m,
      digest,
      bindDiagnostics,
      linkDiagnostics,
      namedFromOutside: [...named],
      imports: importIndex(m),
    });
  }
  const namedFromOutside = new Set<DefInfo>();
  for (const m of modules) diagnostics.push(...modulesOut.get(m.name)!.bindDiagnostics);
  for (const m of modules) {
    const b = modulesOut.get(m.name)!;
    diagnostics.push(...b.linkDiagnostics);
    for (const def of b.namedFromOutside) namedFromOutside.add(def);
  }
  return { modules, linked: { namedFromOutside }, bound: { shape, modules: modulesOut } };
}

/** A bound module as binding left it: its own definitions in scope, no import linked. */
function unlink(m: ModuleInfo): void {
  m.scope.clear();
  for (const def of m.defs.values()) m.scope.set(def.name, { kind: "def", def, via: null });
  for (const info of m.imports) {
    info.module = null;
    for (const name of info.names) name.def = null;
  }
}

/**
 * The state, with its model made on first access. A function of its own on
 * purpose: a closure made in {@link analyzeFrom} would share that function's
 * context, which holds `prev` for the plan's closures, and so every state
 * would keep the one before it alive, and that one its own (a leak of a
 * whole compilation per edit, measured: 48 MiB per edit of the
 * 100,000-line program without the parse cache).
 */
function newState(
  key: string,
  records: ReadonlyMap<string, ModuleRecord>,
  interfaces: ReadonlyMap<string, Interface>,
  bound: BoundModules,
  prevModel: EngineState["model"],
  modules: readonly ModuleInfo[],
  checked: readonly ModuleInfo[],
  gone: readonly string[],
  result: CheckResult,
  sorted: readonly Diagnostic[],
): EngineState {
  // Dropped once the model is made: the state keeps no model but its own.
  let previous = prevModel;
  const state: EngineState = {
    key,
    records,
    interfaces,
    bound,
    model: null,
    analysis: {
      diagnostics: sorted,
      checked: null,
      get model(): SemanticModel {
        state.model ??= patchedModel(previous, bound, modules, checked, gone, result, sorted);
        previous = null;
        return state.model.model;
      },
    },
  };
  return state;
}

// ---------------------------------------------------------------- records

function reusedModule(record: ModuleRecord): ReusedModule {
  return {
    check: record.check,
    entry: (def, test) => (test ? record.tests : record.defs).get(def.key)!,
  };
}

function newRecord(
  m: ModuleInfo,
  check: ModuleCheck,
  result: CheckResult,
  iface: Interface,
  digests: ReadonlyMap<string, string>,
): ModuleRecord {
  const entry = (def: DefInfo): ReusedEntry => ({
    signature: result.signatures.get(def)!,
    references: result.references.get(def)!,
    body: result.bodies.get(def),
  });
  const defs = new Map<string, ReusedEntry>();
  for (const def of m.defs.values()) defs.set(def.key, entry(def));
  for (const def of m.duplicates) defs.set(def.key, entry(def));
  const tests = new Map<string, ReusedEntry>();
  for (const t of m.tests) tests.set(t.def.key, entry(t.def));
  // A label or an edit in another file (a parameter's declared type, a
  // private definition's declaration) holds that file's offsets.
  const spanFiles = new Map<string, string | null>();
  const other = (file: string | null) => {
    if (file !== null && file !== m.file) spanFiles.set(file, digests.get(file) ?? null);
  };
  for (const d of check.diagnostics) {
    other(d.file);
    for (const l of d.labels) other(l.file);
    for (const f of d.fixes) for (const e of f.edits) other(e.file);
  }
  return {
    path: m.file,
    digest: digests.get(m.file)!,
    check,
    defs,
    tests,
    spanFiles,
    iface,
    exports: exportedNames(m),
    referenced: referencedKeys(m, result),
  };
}

// ---------------------------------------------------------------- interfaces

/**
 * What other modules can read of a module, kept as the digest of its text
 * (some 14 KB a module, only ever compared), made when first compared.
 */
export interface Interface {
  readonly digest: string;
}

/** The interface of a file that could not be parsed. */
const FAILED: Interface = knownInterface("failed");

function knownInterface(digest: string): Interface {
  return { digest };
}

/**
 * A module's interface: every top-level definition's name, kind, `pub`,
 * type parameters and signature (parameter types, result, fields, variants
 * and payloads), in source order. No offsets: a body edit that moves a later
 * declaration leaves it unchanged (a diagnostic pointing into the file is a
 * span dependency instead).
 *
 * Its digest is made on first use (measured: 114 ms of the 100,000-line
 * program's first analysis, which compares none). It holds the module's
 * binder facts and its own signatures only, never the analysis' tables: a
 * module reused through many edits keeps its interface, and with it would
 * keep every analysis it outlived.
 */
export function interfaceOf(m: ModuleInfo, signatures: DefTable<Signature>): Interface {
  return new ModuleInterface(
    m.file,
    [...m.defs.values()].map((def) => ({ def, signature: signatures.get(def)! })),
  );
}

type OwnSignatures = readonly { readonly def: DefInfo; readonly signature: Signature }[];

class ModuleInterface implements Interface {
  #file: string;
  #own: OwnSignatures | null;
  #digest: string | null = null;

  constructor(file: string, own: OwnSignatures) {
    this.#file = file;
    this.#own = own;
  }

  get digest(): string {
    if (this.#digest === null) {
      this.#digest = interfaceDigest(this.#file, this.#own!);
      this.#own = null;
    }
    return this.#digest;
  }
}

function interfaceDigest(file: string, own: OwnSignatures): string {
  const parts: string[] = [file];
  for (const { def, signature: s } of own) {
    parts.push(
      def.name,
      def.kind,
      def.exported ? "pub" : "",
      s.typeParams.map((p) => p.name).join(","),
      // Parameter names are the body's business: calls are positional.
      s.params.map((p) => typeText(p.type)).join(","),
      typeText(s.result),
      s.fields.map((f) => `${f.name}:${typeText(f.type)}`).join(","),
      s.variants.map((v) => `${v.name}(${v.payload.map(typeText).join(",")})`).join(","),
    );
  }
  return blake3Framed(parts);
}

/** A type as data: everything but offsets (types hold none). */
function typeText(t: Type): string {
  return JSON.stringify(t);
}

/** A module's exported definitions' names and kinds: what N0201's import fixes read of it. */
function exportedNames(m: ModuleInfo): string {
  const parts: string[] = [m.name];
  for (const def of m.defs.values()) if (def.exported) parts.push(def.name, def.kind);
  return parts.join("\u0000");
}

// ---------------------------------------------------------------- the model

/**
 * The model, from the last one where there is one: the reused modules'
 * parts as they were, the checked modules' parts rebuilt, and the reverse
 * relations of only the definitions a changed module referred to (before
 * or now) or defines recomputed: kept links from unchanged modules, new
 * links from the changed ones.
 */
function patchedModel(
  prev: EngineState["model"],
  bound: BoundModules,
  modules: readonly ModuleInfo[],
  checked: readonly ModuleInfo[],
  gone: readonly string[],
  result: CheckResult,
  diagnostics: readonly Diagnostic[],
): NonNullable<EngineState["model"]> {
  const parts = new Map<string, ModelPart>();
  const rebuilt = new Set(checked.map((m) => m.name));
  for (const m of modules) {
    const kept = rebuilt.has(m.name) ? undefined : prev?.parts.get(m.name);
    parts.set(m.name, kept ?? modelPart(m, result, bound.modules.get(m.name)!.imports));
  }
  const ordered = modules.map((m) => parts.get(m.name)!);
  if (prev === null) return { parts, model: assembleModel(ordered, diagnostics, null) };

  const changedModules = new Set([...rebuilt, ...gone]);
  const affected = new Set<string>();
  for (const name of changedModules) {
    for (const { ref } of prev.parts.get(name)?.outgoing ?? []) affected.add(ref.key);
  }
  const usedBy = new Map<string, Map<string, Occurrence[]>>();
  const calledBy = new Map<string, Map<string, Occurrence[]>>();
  for (const name of rebuilt) {
    const part = parts.get(name)!;
    for (const def of part.definitions) affected.add(def.key);
    for (const { from, ref } of part.outgoing) {
      affected.add(ref.key);
      const inverse = ref.role === "call" ? calledBy : usedBy;
      let inner = inverse.get(ref.key);
      if (inner === undefined) inverse.set(ref.key, inner = new Map());
      const list = inner.get(from);
      const occurrence = { file: ref.file, span: ref.span };
      if (list === undefined) inner.set(from, [occurrence]);
      else list.push(occurrence);
    }
  }
  const fromUnchanged = (l: Link) => !changedModules.has(moduleOfKey(l.key));
  const merged = (kept: readonly Link[], fresh: readonly Link[]): Link[] =>
    [...kept.filter(fromUnchanged), ...fresh].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0
    );
  const reverse = (key: string): Reverse => {
    const before = findDefinition(prev.model, key);
    if (!affected.has(key)) return before ?? { usedBy: [], calledBy: [] };
    return {
      usedBy: merged(before?.usedBy ?? [], reverseLinks(usedBy.get(key))),
      calledBy: merged(before?.calledBy ?? [], reverseLinks(calledBy.get(key))),
    };
  };
  // A kept part's definition that no changed module referred to, with the
  // very same diagnostics, is the last model's object. Equal is not enough:
  // the facts find a definition's diagnostics among the compilation's by
  // identity (their ids, their owners), and the program checks and a module
  // linked again make new objects for the same diagnostics.
  const reuse = (def: Definition, owned: readonly Diagnostic[]): Definition | null => {
    if (affected.has(def.key) || rebuilt.has(def.module)) return null;
    const before = findDefinition(prev.model, def.key);
    if (before === null || !sameDiagnostics(before.diagnostics, owned)) return null;
    return before;
  };
  return { parts, model: assembleModel(ordered, diagnostics, reverse, reuse) };
}

function sameDiagnostics(a: readonly Diagnostic[], b: readonly Diagnostic[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}
