/**
 * The checker's lints: unused locals (N0401, with the rename that keeps the
 * name free) and unused imports (N0402, with their removal).
 *
 * @module
 */
import { type Diagnostic, DIAGNOSTICS as D, type Fix, type Span } from "../base/mod.ts";
import type { ModuleInfo } from "./binder.ts";
import type { BodyInfo } from "./links.ts";
import { prefixUnderscore, removeImport, removeImportName } from "./fixes.ts";
import { renameConflict } from "./rename.ts";
import { type Checker, report } from "./check_state.ts";

/** N0401 for every local of a body nothing reads, unless its name starts with `_`. */
export function lintUnusedLocals(c: Checker, file: string, body: BodyInfo): void {
  body.bindings.forEach((b, index) => {
    if (b.kind === "type_parameter" || b.references.length > 0 || b.name.startsWith("_")) return;
    const what = b.kind === "parameter" ? "parameter" : "variable";
    const name = unusedName(body, index);
    report(
      c,
      D.unusedLocal.local(
        {
          file: file,
          span: b.declSpan,
          fixes: name === null ? [] : [{
            title: `rename to \`${name}\``,
            applicability: "automatic",
            precondition: { kind: "none" },
            edits: [
              name === `_${b.name}`
                ? prefixUnderscore(file, b.declSpan.start)
                : { file: file, span: b.declSpan, replacement: name },
            ],
          }],
        },
        what,
        b.name,
      ),
    );
  });
}

/**
 * The name N0401's fix gives an unused local: `_name`, unless that would
 * collide with a binding of the same scope or pattern, or capture a
 * reference to another `_name` (a parameter read after a `let`); then
 * `_name2`, `_name3`, … up to `_name9`; null (no fix) when all are taken.
 */
export function unusedName(body: BodyInfo, index: number): string | null {
  const base = `_${body.bindings[index].name}`;
  for (let n = 1; n <= 9; n++) {
    const name = n === 1 ? base : `${base}${n}`;
    if (renameConflict(body, index, name) === null) return name;
  }
  return null;
}

export function lintImports(c: Checker, m: ModuleInfo): void {
  for (const info of m.imports) {
    if (info.module === null) continue; // unknown module: already an error
    const node = info.node;
    if (node.names === null) {
      if (
        c.usedImports.has(info) ||
        m.scope.get(node.alias?.text ?? node.path[node.path.length - 1].text)?.kind !== "module"
      ) continue;
      report(c, unusedImport(m, node, info.moduleName, removeImport(m.file, m.bytes, node)));
      continue;
    }
    info.names.forEach((name, index) => {
      if (c.usedImports.has(name) || name.def === null) return;
      const entry = m.scope.get(name.ref.text);
      if (entry === undefined || entry.kind !== "def" || entry.via !== name) return;
      const edit = removeImportName(m.file, m.bytes, node, index);
      report(c, unusedImport(m, name.ref, name.ref.text, edit));
    });
  }
}

export function unusedImport(
  m: ModuleInfo,
  span: Span,
  name: string,
  edit: Fix["edits"][number],
): Diagnostic {
  return D.unusedImport.name({
    file: m.file,
    span,
    fixes: [{
      title: "remove the unused import",
      applicability: "automatic",
      precondition: { kind: "none" },
      edits: [edit],
    }],
  }, name);
}
