/**
 * Binding: one module at a time, its top-level definitions and the names
 * its imports introduce, with no look at any other module. The linker
 * (linker.ts) then connects imports across modules.
 *
 * @module
 */
import { type Diagnostic, DIAGNOSTICS } from "../base/mod.ts";
import type {
  EnumDecl,
  FnDecl,
  Import,
  NameRef,
  RecordDecl,
  SourceFile,
  TestDecl,
} from "../syntax/mod.ts";

export type DefKind = "function" | "record" | "enum";

/**
 * A durable definition (or a prelude enum, with `module` null), as the
 * binder declares it. What the checker finds about it (its signature, its
 * references) lives in the checker's side tables (links.ts), keyed by it.
 */
export interface DefInfo {
  readonly key: string;
  readonly name: string;
  readonly kind: DefKind;
  readonly module: ModuleInfo | null;
  readonly node: FnDecl | RecordDecl | EnumDecl | null;
  readonly exported: boolean;
}

/** A name brought in by `import m.{X}`. */
export interface ImportName {
  readonly ref: NameRef;
  readonly info: ImportInfo;
  /** Null until linked, or when the name cannot be imported (diagnosed). */
  def: DefInfo | null;
}

export interface ImportInfo {
  readonly node: Import;
  /** The module path `a.b.c`. */
  readonly moduleName: string;
  /** Null when the module is unknown or failed to load (diagnosed once). */
  module: ModuleInfo | null;
  readonly names: readonly ImportName[];
}

/**
 * A test function (`test fn name() { ... }`). It binds no name and is not
 * a durable definition: its body is checked like a function's, and `def`
 * (never in a module's `defs`) collects the body's references.
 */
export interface TestInfo {
  /** `module.path::name`, unique among the module's tests. */
  readonly key: string;
  readonly name: string;
  readonly node: TestDecl;
  readonly def: DefInfo;
}

/** What a top-level name of a module means there. */
export type ScopeEntry =
  | { readonly kind: "def"; readonly def: DefInfo; readonly via: ImportName | null }
  | { readonly kind: "module"; readonly info: ImportInfo }
  /** An imported name that could not be linked: uses of it are errors already reported. */
  | { readonly kind: "broken"; readonly via: ImportName };

export interface ModuleInfo {
  readonly name: string;
  /** The file's path relative to the source root. */
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly tree: SourceFile;
  /** Own definitions; the first of duplicates wins. */
  readonly defs: Map<string, DefInfo>;
  /** Every top-level name: own definitions, then imported names and aliases (linker). */
  readonly scope: Map<string, ScopeEntry>;
  readonly imports: ImportInfo[];
  /**
   * Second (and later) definitions of a taken name (N0204), in source
   * order: checked like any other and in the model under their own keys
   * (`module::name#2`, `#3`, …), but never what the name refers to.
   */
  readonly duplicates: DefInfo[];
  /** Its test functions, in source order, duplicates (N0204) left out. */
  readonly tests: TestInfo[];
}

/**
 * The key of each item's definition, by the item's syntax node: an unchanged
 * file's tree comes back from the parse cache, and with it the very key
 * string of the last binding, whose hash V8 has already computed. Keys are
 * used as map keys everywhere after binding, and a fresh `${module}::${name}`
 * string costs its hashing again at each use (measured: 4 ms for the 9,731
 * definitions of the generated 100,000-line program, each time it is bound).
 */
const KEYS = new WeakMap<object, { readonly module: string; readonly key: string }>();

function keyOf(module: string, name: string, item: object): string {
  const known = KEYS.get(item);
  if (known !== undefined && known.module === module) return known.key;
  const key = `${module}::${name}`;
  KEYS.set(item, { module, key });
  return key;
}

/** A definition as the binder declares it. */
export function newDefInfo(
  key: string,
  name: string,
  kind: DefKind,
  module: ModuleInfo | null,
  node: FnDecl | RecordDecl | EnumDecl | null,
  exported: boolean,
): DefInfo {
  return { key, name, kind, module, node, exported };
}

/**
 * The key of the `ordinal`-th declaration (2, 3, …) of a name its module
 * already defines: `main::twin#2`. The first keeps `main::twin`, so keys stay
 * unique and the definition the name means keeps its key.
 */
export function duplicateKey(module: string, name: string, ordinal: number): string {
  return `${module}::${name}#${ordinal}`;
}

/** The module path a definition's key names: `geometry.shapes` of `geometry.shapes::area#2`. */
export function moduleOfKey(key: string): string {
  return key.slice(0, key.indexOf("::"));
}

/** The module path of an import: every segment of `path`. */
export function importModuleName(node: Import): string {
  return node.path.map((p) => p.text).join(".");
}

/** The name an import binds for its module: the alias, else the last segment. */
export function importAliasName(node: Import): string {
  return node.alias !== null ? node.alias.text : node.path[node.path.length - 1]?.text ?? "";
}

/**
 * Collects a module's definitions and imports. Reports duplicate
 * top-level definitions (N0204); import names are added by the linker.
 */
export function bindModule(
  name: string,
  file: string,
  bytes: Uint8Array,
  tree: SourceFile,
  diagnostics: Diagnostic[],
): ModuleInfo {
  const module: ModuleInfo = {
    name,
    file,
    bytes,
    tree,
    defs: new Map(),
    scope: new Map(),
    imports: [],
    duplicates: [],
    tests: [],
  };
  const tests = new Map<string, TestDecl>();
  for (const item of tree.items) {
    if (item.kind === "Error") continue;
    if (item.kind === "TestDecl") {
      const text = item.name.text;
      if (text === "") continue;
      const first = tests.get(text);
      if (first !== undefined) {
        diagnostics.push(duplicate(file, item.name, first.name, text));
        continue;
      }
      tests.set(text, item);
      const key = keyOf(name, text, item);
      const def = newDefInfo(key, text, "function", module, null, false);
      module.tests.push({ key, name: text, node: item, def });
      continue;
    }
    const kind: DefKind = item.kind === "FnDecl"
      ? "function"
      : item.kind === "RecordDecl"
      ? "record"
      : "enum";
    const text = item.name.text;
    if (text === "") continue; // a name the parser could not read; diagnosed there
    const existing = module.defs.get(text);
    if (existing !== undefined) {
      diagnostics.push(duplicate(file, item.name, existing.node!.name, text));
      const ordinal = 2 + module.duplicates.filter((d) => d.name === text).length;
      module.duplicates.push(
        newDefInfo(duplicateKey(name, text, ordinal), text, kind, module, item, item.pub !== null),
      );
      continue;
    }
    const def = newDefInfo(keyOf(name, text, item), text, kind, module, item, item.pub !== null);
    module.defs.set(text, def);
    module.scope.set(text, { kind: "def", def, via: null });
  }
  for (const node of tree.imports) {
    const info: ImportInfo = {
      node,
      moduleName: importModuleName(node),
      module: null,
      names: [],
    };
    if (node.names !== null) {
      (info.names as ImportName[]).push(
        ...node.names.map((ref) => ({ ref, info, def: null })),
      );
    }
    module.imports.push(info);
  }
  return module;
}

/** N0204 for a second declaration of `text`, pointing at the first. */
export function duplicate(
  file: string,
  second: { start: number; end: number },
  first: { start: number; end: number },
  text: string,
): Diagnostic {
  const labels = [{
    file,
    span: { start: first.start, end: first.end },
    message: "first defined here",
  }];
  return DIAGNOSTICS.duplicateDefinition.name({ file, span: second, labels }, text);
}

/** `a record`, `an enum`, `a function`: a definition kind in a sentence. */
export function withArticle(kind: DefKind): string {
  return kind === "enum" ? "an enum" : `a ${kind}`;
}
