/**
 * The pipeline after loading: bind each module alone, link imports, check
 * signatures and bodies, then the program-level checks (main) and the
 * lints that need the whole compilation (unused private definitions).
 *
 * @module
 */
import type { Diagnostic } from "../base/mod.ts";
import type { SourceFile } from "../syntax/mod.ts";
import { bindModule, type DefInfo, type ModuleInfo, withArticle } from "./binder.ts";
import { checkModules } from "./checker.ts";
import { linkModules, type ModuleStatus } from "./linker.ts";
import { buildModel, type SemanticModel } from "./model.ts";
import { CODES } from "./registry.ts";
import type { Resolutions } from "./resolutions.ts";
import { INT, showType, UNIT } from "./types.ts";

/** One parsed file, as the analysis needs it. */
export interface AnalysisInput {
  readonly path: string;
  readonly module: string;
  readonly bytes: Uint8Array;
  readonly tree: SourceFile;
}

export interface Analysis {
  /** Semantic and program-level diagnostics, unsorted. */
  readonly diagnostics: Diagnostic[];
  readonly model: SemanticModel;
  /** The checked modules and what each expression resolved to; null unless asked for. */
  readonly checked: CheckedProgram | null;
}

/** What a back end lowers: the checked modules and the checker's resolutions. */
export interface CheckedProgram {
  readonly modules: readonly ModuleInfo[];
  readonly resolutions: Resolutions;
}

/**
 * Analyzes the files of a compilation. `failed` lists module paths whose
 * file exists but was not parsed (diagnosed by the loader): imports of them
 * are not reported again.
 */
export function analyze(
  files: readonly AnalysisInput[],
  rootModule: string | null,
  failed: ReadonlySet<string>,
  sortDiagnostics: (d: Diagnostic[]) => Diagnostic[],
  options: { readonly resolve?: boolean } = {},
): Analysis {
  const diagnostics: Diagnostic[] = [];
  const modules: ModuleInfo[] = files.map((f) =>
    bindModule(f.module, f.path, f.bytes, f.tree, diagnostics)
  );
  const byName = new Map<string, ModuleStatus>();
  for (const m of modules) byName.set(m.name, m);
  for (const name of failed) byName.set(name, "failed");
  linkModules(modules, (name) => byName.get(name) ?? "missing", diagnostics);
  const { bodies, resolutions } = checkModules(modules, diagnostics, options);
  checkMain(modules, rootModule, diagnostics);
  lintUnusedDefinitions(modules, rootModule, diagnostics);
  const sorted = sortDiagnostics(diagnostics);
  // The model is built on first use: `nazm check` never pays for it.
  let model: SemanticModel | null = null;
  return {
    diagnostics: sorted,
    checked: resolutions === null ? null : { modules, resolutions },
    get model(): SemanticModel {
      model ??= buildModel(modules, bodies, sorted);
      return model;
    },
  };
}

function checkMain(
  modules: readonly ModuleInfo[],
  rootModule: string | null,
  out: Diagnostic[],
): void {
  if (rootModule === null) return;
  const root = modules.find((m) => m.name === rootModule);
  if (root === undefined) return;
  const main = root.defs.get("main");
  if (main === undefined) {
    out.push({
      code: CODES.missingMain,
      severity: "error",
      message: `the root module \`${root.name}\` has no \`main\` function`,
      file: null,
      span: null,
      labels: [],
      help: "define `fn main() -> Unit { ... }` in the root file",
      fixes: [],
    });
    return;
  }
  const problem = mainProblem(main);
  if (problem === null) return;
  const node = main.node!;
  out.push({
    code: CODES.mainType,
    severity: "error",
    message: problem,
    file: root.file,
    span: { start: node.name.start, end: node.name.end },
    labels: [],
    help: "write `fn main() -> Unit` or `fn main() -> Int`",
    fixes: [],
  });
}

/** What is wrong with the root's `main` (N0502), the first thing found; null when nothing is. */
function mainProblem(main: DefInfo): string | null {
  if (main.kind !== "function") return `\`main\` must be a function, not ${withArticle(main.kind)}`;
  const node = main.node!;
  const names = (list: readonly { text: string }[]) => list.map((n) => `\`${n.text}\``).join(", ");
  if (node.typeParams.length > 0) {
    return `\`main\` must not have type parameters, but it has ${names(node.typeParams)}`;
  }
  if (node.kind === "FnDecl" && node.params.length > 0) {
    const count = node.params.length;
    return `\`main\` must take no parameters, but it takes ${count} parameter${
      count === 1 ? "" : "s"
    }`;
  }
  const result = main.result;
  // An unknown result type was already reported where it is written.
  if (result.t === "error") return null;
  if (result.t === "con" && (result.name === UNIT.name || result.name === INT.name)) return null;
  return `\`main\` must return \`Unit\` or \`Int\`, not \`${showType(null, result)}\``;
}

function lintUnusedDefinitions(
  modules: readonly ModuleInfo[],
  rootModule: string | null,
  out: Diagnostic[],
): void {
  const referenced = new Set<string>();
  for (const m of modules) {
    for (const def of [...m.defs.values(), ...m.duplicates]) {
      for (const ref of def.refs) if (ref.key !== def.key) referenced.add(ref.key);
    }
    // A helper only tests call is used: tests are part of the compilation.
    for (const t of m.tests) for (const ref of t.def.refs) referenced.add(ref.key);
  }
  for (const m of modules) {
    // A duplicate (N0204) is a definition too: nothing can name it, so unless exported it is unused.
    for (const def of [...m.defs.values(), ...m.duplicates]) {
      if (def.exported || def.namedFromOutside || referenced.has(def.key)) continue;
      if (def.name.startsWith("_")) continue;
      if (m.name === rootModule && def.name === "main") continue;
      const name = def.node!.name;
      out.push({
        code: CODES.unusedDefinition,
        severity: "warning",
        message: `${def.kind} \`${def.name}\` is never used`,
        file: m.file,
        span: { start: name.start, end: name.end },
        labels: [],
        help: null,
        fixes: [],
      });
    }
  }
}
