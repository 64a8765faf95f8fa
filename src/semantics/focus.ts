/**
 * The facts of a few modules without a whole analysis: what a first answer
 * about one definition needs, long before the whole program is checked.
 *
 * A module's facts depend on the bodies of that module and of the modules
 * that import it, and on the signatures those bodies read: a body reads
 * other modules only through signatures (a whole check checks them all
 * before any body; a focus checks each when first read), and a name of
 * module M can be written only in M or where M is imported (an import
 * brings it into scope; nothing else does). So checking the bodies
 * of the focus modules and of their importers, and every signature they
 * read, gives the focus modules' definitions, links, reverse links and
 * diagnostics exactly as a whole analysis has them. The other modules'
 * facts would be wrong (their bodies unchecked), and are left out; most of
 * them are never even bound (checker.ts `checkFocus`).
 *
 * A diagnostic's primary place is in the file of the module whose binding,
 * linking or checking reported it (labels may point elsewhere), and a
 * diagnostic list filtered to some files and sorted is the whole list
 * sorted and filtered (the sort is stable, and each phase adds its
 * diagnostics in the same order both ways). tests/facts/focus_test.ts
 * compares both on generated programs under random edits.
 *
 * @module
 */
import type { Diagnostic, Span } from "../base/mod.ts";
import {
  type CompiledFile,
  type ModuleTable,
  type ParsedModules,
  sortDiagnostics,
} from "./analysis.ts";
import { type DefKind, type ModuleInfo, moduleOfKey } from "./binder.ts";
import { checkFocus } from "./checker.ts";
import { assembleModel, type IndexEntry, modelPart, type SemanticModel } from "./model.ts";
import { checkProgram } from "./program.ts";

/** Where a definition is and what it is: all a link to it shows, known from binding alone. */
export interface DefIdentity {
  readonly key: string;
  readonly kind: DefKind;
  readonly name: string;
  readonly module: string;
  readonly file: string;
  readonly nameSpan: Span;
}

/** Some modules' facts, each as the whole analysis of the same sources has it. */
export interface Focus {
  /** Only the focus modules' definitions, tests and files' index. */
  readonly model: SemanticModel;
  /** The diagnostics whose primary place is in a focus module's file, sorted. */
  readonly diagnostics: readonly Diagnostic[];
  /** Any top-level definition of the compilation by key, or null. */
  identity(key: string): DefIdentity | null;
}

/**
 * Whether a module's bodies are checked by a focus on `focus`: it is a
 * focus module or imports one (a _reader_), so its bodies may name a focus
 * module's definitions. Also which skimmed files a focus parses in full
 * (compile.ts), from the same module paths.
 */
export function readsFocus(
  module: string,
  imported: readonly string[],
  focus: ReadonlySet<string>,
): boolean {
  return focus.has(module) || imported.some((name) => focus.has(name));
}

/**
 * The facts of the modules `focus` names (module paths), from `parsed`,
 * checking no other module's bodies, and binding only the modules the check
 * reaches (`table`, fresh: nothing of it bound yet). `importsOf` gives the
 * modules a file imports without binding it.
 */
export function analyzeFocus(
  parsed: ParsedModules,
  table: ModuleTable,
  focus: ReadonlySet<string>,
  importsOf: (file: CompiledFile) => readonly string[],
): Focus {
  const readers: ModuleInfo[] = [];
  for (const file of parsed.files) {
    if (!readsFocus(file.module, importsOf(file), focus)) continue;
    const status = table.status(file.module);
    if (typeof status === "object") readers.push(status);
  }
  const focused = readers.filter((m) => focus.has(m.name));
  const { result, modules: checks } = checkFocus(table, readers);
  const found = [...table.diagnostics];
  for (const m of focused) found.push(...checks.get(m)!.diagnostics);
  // Over the readers: only they can name a focus module's definitions, and
  // only the focus files' findings are kept.
  checkProgram(readers, parsed.rootModule, result, found);
  const files = new Set(focused.map((m) => m.file));
  const inFocus = (d: Diagnostic) => d.file !== null && files.has(d.file);
  const diagnostics = sortDiagnostics([
    ...parsed.diagnostics.filter(inFocus),
    ...found.filter(inFocus),
  ]);
  let model: SemanticModel | null = null;
  return {
    diagnostics,
    get model(): SemanticModel {
      if (model !== null) return model;
      const whole = assembleModel(readers.map((m) => modelPart(m, result)), diagnostics, null);
      const index: Record<string, readonly IndexEntry[]> = {};
      for (const file of Object.keys(whole.index)) {
        if (files.has(file)) index[file] = whole.index[file];
      }
      model = {
        definitions: whole.definitions.filter((d) => focus.has(d.module)),
        tests: whole.tests.filter((t) => focus.has(t.module)),
        index,
      };
      return model;
    },
    identity(key: string): DefIdentity | null {
      const m = table.status(moduleOfKey(key));
      if (typeof m !== "object") return null;
      // A duplicate (N0204, `name#2`) is linked to by its own body alone.
      const named = m.defs.get(key.slice(m.name.length + 2));
      const def = named?.key === key ? named : m.duplicates.find((d) => d.key === key);
      if (def === undefined) return null;
      const name = def.node!.name;
      return {
        key,
        kind: def.kind,
        name: def.name,
        module: m.name,
        file: m.file,
        nameSpan: { start: name.start, end: name.end },
      };
    },
  };
}
