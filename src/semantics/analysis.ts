/**
 * What the pipeline's phases hand each other, and the two steps a whole
 * analysis and the incremental engine share (the module table the linker
 * reads, the order of diagnostics). Below compile.ts and engine.ts, so that
 * neither imports the other's module for them.
 *
 * @module
 */
import type { Diagnostic, LineIndex } from "../base/mod.ts";
import type { ParseResult } from "../syntax/mod.ts";
import { bindModule, type DefInfo, type ModuleInfo } from "./binder.ts";
import type { CheckResult } from "./links.ts";
import { linkModule, type LinkResult, type ModuleStatus } from "./linker.ts";
import type { ReadError } from "./load.ts";
import type { SemanticModel } from "./model.ts";
import type { Resolutions } from "./resolutions.ts";

export interface CompiledFile {
  /** Relative to the source root, `/` separators. */
  readonly path: string;
  /** `geometry.shapes`. */
  readonly module: string;
  readonly bytes: Uint8Array;
  /** Lowercase hex BLAKE3 of the bytes. */
  readonly digest: string;
  readonly lineIndex: LineIndex;
  readonly parse: ParseResult;
}

/** A file that was read but could not be parsed, or refused as too large. */
export interface RejectedFile {
  readonly path: string;
  /** Its bytes; empty when it was too large (never read past the limit). */
  readonly bytes: Uint8Array;
  readonly digest: string;
  readonly lineIndex: LineIndex;
  /** Why it was too large (its size and the limit), or null when its bytes were read. */
  readonly tooLarge: string | null;
}

/** What a back end lowers: the checked modules and what the checker found for them. */
export interface CheckedProgram {
  readonly modules: readonly ModuleInfo[];
  readonly signatures: CheckResult["signatures"];
  readonly resolutions: Resolutions;
}

/** The whole pipeline after loading, as one value (what an {@link Engine} keeps). */
export interface Analysis {
  /** Every diagnostic, sorted. */
  readonly diagnostics: readonly Diagnostic[];
  readonly model: SemanticModel;
  readonly checked: CheckedProgram | null;
}

/** Every module the root reaches, parsed, and what could not be. */
export interface ParsedModules {
  /** Null when the root could not be read. */
  readonly rootModule: string | null;
  readonly rootError: string | null;
  /** Sorted by path. */
  readonly files: CompiledFile[];
  /** Sorted by path. */
  readonly rejected: RejectedFile[];
  /** Module paths whose file exists but was not parsed: imports of them are not reported again. */
  readonly failed: Set<string>;
  readonly unread: Map<string, ReadError>;
  /** Loading diagnostics in the order of reading, then syntax diagnostics by file. */
  readonly diagnostics: Diagnostic[];
  readonly needsSyntaxRecovery: boolean;
}

/** What the linker finds for a module path: a module, a file that failed to load, nothing. */
export function moduleStatus(
  modules: readonly ModuleInfo[],
  failed: ReadonlySet<string>,
): (name: string) => ModuleStatus {
  const byName = new Map<string, ModuleStatus>();
  for (const m of modules) byName.set(m.name, m);
  for (const name of failed) byName.set(name, "failed");
  return (name) => byName.get(name) ?? "missing";
}

/** Every module bound alone, then linked: what a whole analysis and a focus start from. */
export interface BoundModules {
  readonly modules: readonly ModuleInfo[];
  readonly linked: LinkResult;
  /** What binding and linking reported, in their order. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Binds every parsed module alone, in path order, then links their imports, in the same order. */
export function bindAndLink(parsed: ParsedModules): BoundModules {
  const table = moduleTable(parsed);
  const modules = table.all();
  for (const m of modules) table.link(m);
  const linked = { namedFromOutside: table.namedFromOutside };
  return { modules, linked, diagnostics: table.diagnostics };
}

/**
 * The modules of a parsed compilation, each bound when first asked for and
 * linked when first needed: what a focus checks (focus.ts), which reads a
 * few modules' scopes and the declarations of the modules those import, and
 * so binds a few dozen of the generated 100,000-line program's 201 modules;
 * {@link bindAndLink} binds and links every module through one. A module
 * is the same whenever it is bound or linked: binding reads the module's own
 * tree alone, and linking a module reads only the definitions of the
 * modules it imports (linker.ts `linkModule`).
 */
export interface ModuleTable {
  /** What the linker finds for a module path, binding the module on the first ask. */
  status(name: string): ModuleStatus;
  /** Links a bound module, once: its imports, and with them the modules they name, are bound. */
  link(module: ModuleInfo): void;
  /** Every module, bound, in path order (what the import fix of an unknown name reads). */
  all(): readonly ModuleInfo[];
  /** The modules bound so far, in the order they were. */
  bound(): readonly ModuleInfo[];
  /** What binding and linking reported, in their order. */
  readonly diagnostics: readonly Diagnostic[];
  /** The private definitions the linked modules' imports name (linker.ts `LinkResult`). */
  readonly namedFromOutside: Set<DefInfo>;
  /** Told of each module as it is bound (the checker declares its type parameters). */
  onBind: ((module: ModuleInfo) => void) | null;
}

/** A {@link ModuleTable} of `parsed`, nothing bound yet. */
export function moduleTable(parsed: ParsedModules): ModuleTable {
  const files = new Map(parsed.files.map((f) => [f.module, f]));
  const bound = new Map<string, ModuleInfo>();
  const linked = new Set<ModuleInfo>();
  const diagnostics: Diagnostic[] = [];
  const table: ModuleTable = {
    status(name) {
      // As moduleStatus has it: a module that failed to load is "failed", whatever else.
      if (parsed.failed.has(name)) return "failed";
      const known = bound.get(name);
      if (known !== undefined) return known;
      const f = files.get(name);
      if (f === undefined) return "missing";
      const module = bindModule(f.module, f.path, f.bytes, f.parse.tree, diagnostics);
      bound.set(name, module);
      table.onBind?.(module);
      return module;
    },
    link(module) {
      if (linked.has(module)) return;
      linked.add(module);
      linkModule(module, table.status, diagnostics, table.namedFromOutside);
    },
    all() {
      const all: ModuleInfo[] = [];
      for (const f of parsed.files) {
        const status = table.status(f.module);
        if (typeof status === "object") all.push(status);
      }
      return all;
    },
    bound: () => [...bound.values()],
    diagnostics,
    namedFromOutside: new Set(),
    onBind: null,
  };
  return table;
}

/** Orders diagnostics by file (program-level last), offset, code. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.sort((a, b) => {
    if (a.file !== b.file) {
      if (a.file === null) return 1;
      if (b.file === null) return -1;
      return a.file < b.file ? -1 : 1;
    }
    const ao = a.span?.start ?? 0;
    const bo = b.span?.start ?? 0;
    if (ao !== bo) return ao - bo;
    return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
  });
}
