/**
 * The program-level checks, once every definition is checked: the root's
 * `main` (N0501, N0502), the definitions nothing uses (N0403), which
 * need the references of the whole compilation, and the definitions that
 * shadow the prelude (N0404).
 *
 * @module
 */
import { type At, type Diagnostic, DIAGNOSTICS } from "../base/mod.ts";
import { type DefInfo, type ModuleInfo, withArticle } from "./binder.ts";
import type { CheckResult } from "./links.ts";
import { PRELUDE_FUNCTIONS, PRELUDE_TYPES } from "./prelude.ts";
import { INT, showType, type Type, UNIT } from "./types.ts";

/**
 * Checks the root's `main`, reports unused private definitions and the
 * definitions that shadow the prelude.
 * `referenced` gives each module's {@link referencedKeys} when the caller
 * keeps them (the incremental engine); they are computed otherwise.
 */
export function checkProgram(
  modules: readonly ModuleInfo[],
  rootModule: string | null,
  checked: CheckResult,
  out: Diagnostic[],
  referenced: (m: ModuleInfo) => ReadonlySet<string> = (m) => referencedKeys(m, checked),
): void {
  checkMain(modules, rootModule, checked, out);
  lintUnusedDefinitions(modules, rootModule, checked, out, referenced);
  lintPreludeShadowing(modules, out);
}

/** The definitions a module's definitions and tests refer to, a definition's references to itself aside. */
export function referencedKeys(m: ModuleInfo, checked: CheckResult): Set<string> {
  const referenced = new Set<string>();
  for (const def of [...m.defs.values(), ...m.duplicates]) {
    for (const ref of checked.references.get(def)!.refs) {
      if (ref.key !== def.key) referenced.add(ref.key);
    }
  }
  // A helper only tests call is used: tests are part of the compilation.
  for (const t of m.tests) {
    for (const ref of checked.references.get(t.def)!.refs) referenced.add(ref.key);
  }
  return referenced;
}

/**
 * N0404: a definition named like a prelude function or type hides it where
 * it is in scope. Allowed (the prelude is not reserved), but a newcomer who
 * writes `fn push(...)` and later calls the prelude's `push` meets an error
 * that makes sense only once this is known.
 */
function lintPreludeShadowing(modules: readonly ModuleInfo[], out: Diagnostic[]): void {
  for (const m of modules) {
    for (const def of m.defs.values()) {
      const at = { file: m.file, span: def.node!.name };
      const prelude = PRELUDE_FUNCTIONS.get(def.name);
      if (def.kind === "function" && prelude !== undefined) {
        const help =
          `here \`${def.name}\` is this function, not the prelude's \`${prelude.signature}\`; rename it to keep both`;
        out.push(DIAGNOSTICS.shadowsPrelude.function({ ...at, help }, def.name));
      } else if (def.kind !== "function" && PRELUDE_TYPES.has(def.name)) {
        const help =
          `here \`${def.name}\` is this ${def.kind}, and the prelude's cannot be named; rename it to keep both`;
        out.push(DIAGNOSTICS.shadowsPrelude.type({ ...at, help }, def.kind, def.name));
      }
    }
  }
}

function checkMain(
  modules: readonly ModuleInfo[],
  rootModule: string | null,
  checked: CheckResult,
  out: Diagnostic[],
): void {
  if (rootModule === null) return;
  const root = modules.find((m) => m.name === rootModule);
  if (root === undefined) return;
  const main = root.defs.get("main");
  if (main === undefined) {
    const help = "define `fn main() -> Unit { ... }` in the root file";
    out.push(DIAGNOSTICS.missingMain.root({ file: null, span: null, help }, root.name));
    return;
  }
  const at = {
    file: root.file,
    span: main.node!.name,
    help: "write `fn main() -> Unit` or `fn main() -> Int`",
  };
  const problem = mainProblem(main, checked.signatures.get(main)!.result, at);
  if (problem !== null) out.push(problem);
}

/** What is wrong with the root's `main` (N0502), the first thing found; null when nothing is. */
function mainProblem(main: DefInfo, result: Type, at: At): Diagnostic | null {
  const report = DIAGNOSTICS.mainType;
  if (main.kind !== "function") return report.notAFunction(at, withArticle(main.kind));
  const node = main.node!;
  if (node.typeParams.length > 0) {
    return report.typeParameters(at, node.typeParams.map((n) => `\`${n.text}\``).join(", "));
  }
  if (node.kind === "FnDecl" && node.params.length > 0) {
    return report.parameters(at, node.params.length);
  }
  // An unknown result type was already reported where it is written.
  if (result.kind === "error") return null;
  if (result.kind === "con" && (result.name === UNIT.name || result.name === INT.name)) return null;
  return report.result(at, showType(null, result));
}

function lintUnusedDefinitions(
  modules: readonly ModuleInfo[],
  rootModule: string | null,
  checked: CheckResult,
  out: Diagnostic[],
  referencedBy: (m: ModuleInfo) => ReadonlySet<string>,
): void {
  // Built only when a definition is not exported (rare in a library of `pub` definitions).
  let referenced: Set<string> | null = null;
  const isReferenced = (key: string) => {
    if (referenced === null) {
      referenced = new Set();
      for (const m of modules) for (const k of referencedBy(m)) referenced.add(k);
    }
    return referenced.has(key);
  };
  for (const m of modules) {
    // A duplicate (N0204) is a definition too: nothing can name it, so unless exported it is unused.
    for (const def of [...m.defs.values(), ...m.duplicates]) {
      if (def.exported || checked.namedFromOutside.has(def) || isReferenced(def.key)) continue;
      if (def.name.startsWith("_")) continue;
      if (m.name === rootModule && def.name === "main") continue;
      const at = { file: m.file, span: def.node!.name };
      out.push(DIAGNOSTICS.unusedDefinition.definition(at, def.kind, def.name));
    }
  }
}
