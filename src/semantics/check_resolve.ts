/**
 * Name resolution in types and across modules: the type a type expression
 * denotes, a module's member reached through an alias, and the unknown-name
 * diagnostic (N0201) with its fixes.
 *
 * @module
 */
import { DIAGNOSTICS as D, type Fix } from "../base/mod.ts";
import type { NamedType, NameRef, TypeExpr } from "../syntax/mod.ts";
import type { DefInfo, ModuleInfo } from "./binder.ts";
import type { RefRole } from "./links.ts";
import { addImport, closestName } from "./fixes.ts";
import { foreignName } from "./foreign_names.ts";
import { PRELUDE_FUNCTIONS, PRELUDE_TYPES, PRELUDE_VARIANTS } from "./prelude.ts";
import { ERROR, freshVar, type Subst, type Type, UNIT } from "./types.ts";
import {
  addRef,
  type Checker,
  conOf,
  type Ctx,
  EXPORTED_NAMES,
  exportedNamed,
  markUsed,
  preludeEnumDef,
  report,
  sig,
  spanOf,
  type TypeCtx,
  typeParamCount,
} from "./check_state.ts";

/**
 * The type a type expression denotes. `role` is how the named definition
 * is referenced (`type` in type positions, `use` for a record literal's
 * head); `inferArgs` lets a record literal omit its type arguments.
 */
export function resolveType(
  c: Checker,
  t: TypeCtx,
  te: TypeExpr,
  role: RefRole = "type",
  inferArgs: Subst | null = null,
): Type {
  switch (te.kind) {
    case "UnitType":
      return UNIT;
    case "Error":
      return ERROR;
    case "FnType":
      return {
        kind: "fn",
        params: te.params.map((p) => resolveType(c, t, p)),
        result: resolveType(c, t, te.result),
      };
    case "NamedType":
      return resolveNamedType(c, t, te, role, inferArgs);
  }
}

export function typeArgs(
  c: Checker,
  t: TypeCtx,
  te: NamedType,
  expected: number,
  what: string,
  inferArgs: Subst | null,
): Type[] | null {
  const args = te.args.map((a) => resolveType(c, t, a));
  if (args.length === expected) return args;
  if (args.length === 0 && inferArgs !== null) {
    return Array.from({ length: expected }, () => freshVar(inferArgs));
  }
  report(c, D.typeArgumentCount.type({ file: t.file, span: te }, what, expected, args.length));
  return null;
}

export function resolveNamedType(
  c: Checker,
  t: TypeCtx,
  te: NamedType,
  role: RefRole,
  inferArgs: Subst | null,
): Type {
  const path = te.path;
  if (path.length === 0) return ERROR;
  let def: DefInfo | null = null;
  const last = path[path.length - 1];
  if (path.length === 1) {
    const name = last.text;
    const param = t.typeParams.get(name);
    if (param !== undefined) {
      t.refs.typeParamRefs.push({ name, span: spanOf(last) });
      if (te.args.length > 0) {
        report(c, D.typeArgumentCount.typeParameter({ file: t.file, span: te }, name));
        return ERROR;
      }
      return param;
    }
    const entry = t.module.scope.get(name);
    t.refs.typeNames.push({
      name,
      span: spanOf(last),
      key: entry?.kind === "def" && entry.def.module !== null ? entry.def.key : null,
    });
    if (entry !== undefined) {
      markUsed(c, entry);
      if (entry.kind === "broken") return ERROR;
      if (entry.kind === "module") {
        report(c, D.valueAsType.notAType({ file: t.file, span: last }, name, "a module"));
        return ERROR;
      }
      def = entry.def;
    } else if (PRELUDE_TYPES.has(name)) {
      const arity = PRELUDE_TYPES.get(name)!;
      const args = typeArgs(c, t, te, arity, name, inferArgs);
      if (args === null) return ERROR;
      const enumDef = preludeEnumDef(name);
      if (enumDef !== null) return conOf(enumDef, args);
      return { kind: "con", name, display: name, args };
    } else {
      unknownName(c, t.file, last, name, "type", typeNameCandidates(t), t.module);
      return ERROR;
    }
  } else if (path.length === 2) {
    const head = path[0];
    const entry = t.module.scope.get(head.text);
    if (entry === undefined || entry.kind !== "module") {
      if (entry?.kind === "broken") return ERROR;
      report(c, D.unknownName.module({ file: t.file, span: head }, head.text));
      return ERROR;
    }
    c.usedImports.add(entry.info);
    const target = entry.info.module;
    if (target === null) return ERROR;
    def = memberOf(c, t.file, target, last);
    if (def === null) return ERROR;
  } else {
    const written = path.map((p) => p.text).join(".");
    report(c, D.unknownName.path({ file: t.file, span: te }, "type", written));
    return ERROR;
  }
  addRef(t, last, def, role);
  if (def.kind === "function") {
    report(c, D.valueAsType.notAType({ file: t.file, span: last }, def.name, "a function"));
    return ERROR;
  }
  const args = typeArgs(c, t, te, typeParamCount(c, def), def.name, inferArgs);
  if (args === null) return ERROR;
  return conOf(def, args);
}

/** A `pub` definition of a module reached through an alias (N0201/N0203 otherwise). */
export function memberOf(
  c: Checker,
  file: string,
  target: ModuleInfo,
  ref: NameRef,
): DefInfo | null {
  c.current.reads.add(target.name);
  const def = target.defs.get(ref.text);
  if (def === undefined) {
    report(c, D.unknownName.inModule({ file, span: ref }, ref.text, target.name));
    return null;
  }
  if (!def.exported) {
    c.namedFromOutside.add(def);
    c.current.namedFromOutside.add(def.key);
    const labels = [{
      file: target.file,
      span: spanOf(def.node!.name),
      message: "declared here without `pub`",
    }];
    const help = `mark it \`pub\` in \`${target.file}\` to use it here`;
    report(c, D.notExported.private({ file, span: ref, labels, help }, ref.text, target.name));
    return null;
  }
  return def;
}

export function typeNameCandidates(t: TypeCtx): string[] {
  const out = [...t.typeParams.keys(), ...PRELUDE_TYPES.keys()];
  for (const [name, entry] of t.module.scope) {
    if (entry.kind === "def" && entry.def.kind !== "function") out.push(name);
  }
  return out;
}

export function valueNameCandidates(c: Checker, ctx: Ctx): string[] {
  const out = [...ctx.locals.keys(), ...PRELUDE_FUNCTIONS.keys(), ...PRELUDE_VARIANTS.keys()];
  for (const [name, entry] of ctx.module.scope) {
    if (entry.kind === "def" && entry.def.kind === "function") out.push(name);
  }
  // `Circle` where the enum `Shape` in scope has it: suggest `Shape.Circle`.
  for (const [name, entry] of ctx.module.scope) {
    if (entry.kind === "def" && entry.def.kind === "enum") {
      for (const v of sig(c, entry.def).variants) out.push(`${name}.${v.name}`);
    }
  }
  return out;
}

/** N0201 with its fixes: the closest name in scope, and imports of exported definitions. */
export function unknownName(
  c: Checker,
  file: string,
  ref: NameRef,
  name: string,
  what: "value" | "type",
  candidates: string[],
  module: ModuleInfo | null,
): void {
  const fixes: Fix[] = [];
  // Suggestions scan every name in scope: bounded per module, so a file
  // of thousands of unknown names stays linear (later ones get no fix).
  if (--c.current.suggestions < 0) {
    report(c, D.unknownName.inScope({ file, span: ref }, what, name));
    return;
  }
  // A variant suggestion must end with the unknown name (`Circle` → `Shape.Circle`).
  let closest = closestName(name, candidates.filter((n) => !n.includes(".")));
  const variant = candidates.find((n) => n.includes(".") && n.endsWith(`.${name}`));
  if (variant !== undefined) closest = variant;
  // A name from another language (`length`, `i32`, `null`): Nazm's own, when it is in scope.
  const foreign = variant === undefined ? foreignName(what, name) : undefined;
  if (foreign !== undefined) {
    // No Nazm equivalent (`map`, `self`): a near spelling (`max`) would only mislead.
    closest = foreign.use !== null && candidates.includes(foreign.use) ? foreign.use : null;
  }
  if (closest !== null) {
    fixes.push({
      title: `use \`${closest}\``,
      applicability: "needs_review",
      precondition: { kind: "intended_name", name: closest },
      edits: [{ file, span: spanOf(ref), replacement: closest }],
    });
  }
  const mod = module;
  if (mod !== null && variant === undefined) {
    c.current.reads.add(EXPORTED_NAMES);
    const exported = exportedNamed(c, name);
    for (const def of exported) {
      if (def.module === mod || def.module === null) continue;
      if ((what === "value") !== (def.kind === "function")) continue;
      fixes.push({
        title: `import \`${name}\` from \`${def.module.name}\``,
        applicability: "needs_review",
        precondition: { kind: "intended_definition", key: def.key },
        edits: [addImport(file, mod.tree, def.module.name, name)],
      });
    }
  }
  report(c, D.unknownName.inScope({ file, span: ref, fixes, help: foreign?.help }, what, name));
}
