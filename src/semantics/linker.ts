/**
 * Linking: connects each module's imports to the modules of the
 * compilation, after every module was bound alone. Cycles need nothing
 * special: top-level names are order-independent.
 *
 * @module
 */
import { type Diagnostic, DIAGNOSTICS, type Span } from "../base/mod.ts";
import {
  type DefInfo,
  duplicate,
  importAliasName,
  type ModuleInfo,
  type ScopeEntry,
} from "./binder.ts";

/** What the loader found for a module path. */
export type ModuleStatus = ModuleInfo | "missing" | "failed";

function declSpanOf(entry: ScopeEntry): Span {
  switch (entry.kind) {
    case "def":
      return entry.via !== null ? entry.via.ref : entry.def.node!.name;
    case "module":
      return entry.info.node.alias ?? entry.info.node.path[entry.info.node.path.length - 1];
    case "broken":
      return entry.via.ref;
  }
}

/** `import a.b.X` where `a.b` defines `X`: the braces were meant. */
function memberHelp(
  moduleName: string,
  lookup: (name: string) => ModuleStatus | undefined,
): string | null {
  const cut = moduleName.lastIndexOf(".");
  if (cut < 0) return null;
  const parent = lookup(moduleName.slice(0, cut));
  const name = moduleName.slice(cut + 1);
  if (typeof parent !== "object" || !parent.defs.has(name)) return null;
  return `\`${parent.name}\` defines \`${name}\`: \`import ${parent.name}.{${name}}\` imports it`;
}

/** What linking found besides the imports it connected. */
export interface LinkResult {
  /** Private definitions an import names (N0203): not reported unused as well. */
  readonly namedFromOutside: ReadonlySet<DefInfo>;
}

/**
 * Links one module's imports: sets each import's module and each imported
 * name's definition, and adds the names imports bring in to the module's
 * scope. Reports N0202, N0203, N0201 (in an import), N0204. Reads only the
 * modules it imports (their definitions), writes only its own imports and
 * scope, and adds to `namedFromOutside` the private definitions they name,
 * so modules are linked one at a time, in any order, and only when needed
 * (analysis.ts `ModuleTable`).
 */
export function linkModule(
  module: ModuleInfo,
  lookup: (name: string) => ModuleStatus | undefined,
  diagnostics: Diagnostic[],
  namedFromOutside: Set<DefInfo>,
): void {
  for (const info of module.imports) {
    const node = info.node;
    if (node.path.length === 0) continue;
    const status = lookup(info.moduleName);
    if (status === undefined || status === "missing") {
      const span = { start: node.path[0].start, end: node.path[node.path.length - 1].end };
      const help = memberHelp(info.moduleName, lookup) ??
        `no file \`${info.moduleName.replaceAll(".", "/")}.nz\` under the source root`;
      diagnostics.push(
        DIAGNOSTICS.unknownModule.module({ file: module.file, span, help }, info.moduleName),
      );
    } else if (status !== "failed") {
      info.module = status;
    }
    if (node.names === null) {
      const alias = importAliasName(node);
      const aliasSpan = node.alias ?? node.path[node.path.length - 1];
      const existing = module.scope.get(alias);
      if (existing !== undefined) {
        diagnostics.push(duplicate(module.file, aliasSpan, declSpanOf(existing), alias));
        continue;
      }
      module.scope.set(alias, { kind: "module", info });
      continue;
    }
    for (const name of info.names) {
      const text = name.ref.text;
      const target = info.module;
      if (target !== null) {
        const def = target.defs.get(text);
        if (def === undefined) {
          const at = { file: module.file, span: name.ref };
          diagnostics.push(DIAGNOSTICS.unknownName.inModule(at, text, info.moduleName));
        } else if (!def.exported) {
          namedFromOutside.add(def);
          const labels = [{
            file: target.file,
            span: { start: def.node!.name.start, end: def.node!.name.end },
            message: "declared here without `pub`",
          }];
          const help = `mark it \`pub\` in \`${target.file}\` to import it`;
          const at = { file: module.file, span: name.ref, labels, help };
          diagnostics.push(DIAGNOSTICS.notExported.private(at, text, info.moduleName));
        } else {
          name.def = def;
        }
      }
      const existing = module.scope.get(text);
      if (existing !== undefined) {
        diagnostics.push(duplicate(module.file, name.ref, declSpanOf(existing), text));
        continue;
      }
      module.scope.set(
        text,
        name.def !== null
          ? { kind: "def", def: name.def, via: name }
          : { kind: "broken", via: name },
      );
    }
  }
}
