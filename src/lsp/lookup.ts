/**
 * What a position names in an analysed file: a definition (through the
 * model's index, as every fact finds it) or a local of the definition
 * around it — the order in which the rename planner looks.
 *
 * @module
 */
import type { Span } from "../base/mod.ts";
import {
  type Binding,
  type CompiledFile,
  type Definition,
  definitionAt,
  findDefinition,
  importAliasName,
  importModuleName,
} from "../semantics/mod.ts";
import { type Item, type SourceFile, TokenKind, type TokenStream, walk } from "../syntax/mod.ts";
import type { Analysis } from "./workspace.ts";

export type Named =
  | { readonly kind: "definition"; readonly def: Definition }
  | { readonly kind: "local"; readonly owner: Definition; readonly binding: Binding };

function contains(span: Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end;
}

export function namedAt(analysis: Analysis, path: string, offset: number): Named | null {
  const model = analysis.compilation.model;
  const def = definitionAt(model, path, offset);
  if (def !== null) return { kind: "definition", def };
  const owner = enclosing(analysis, path, offset);
  if (owner === null) return null;
  const binding = owner.bindings.find((b) =>
    contains(b.declSpan, offset) || b.references.some((r) => contains(r.span, offset))
  );
  return binding === undefined ? null : { kind: "local", owner, binding };
}

/** The definition whose declaration holds the offset (definitions do not nest). */
export function enclosing(analysis: Analysis, path: string, offset: number): Definition | null {
  return analysis.compilation.model.definitions.find((d) =>
    d.file === path && d.span.start <= offset && offset <= d.span.end
  ) ?? null;
}

/** Every place that names it: declaration first, then references in file and offset order. */
export function placesOf(
  analysis: Analysis,
  named: Named,
): { readonly file: string; readonly span: Span; readonly declaration: boolean }[] {
  if (named.kind === "local") {
    const file = named.owner.file;
    return [
      { file, span: named.binding.declSpan, declaration: true },
      ...named.binding.references.map((r) => ({ file, span: r.span, declaration: false })),
    ];
  }
  const places: { file: string; span: Span; declaration: boolean }[] = [];
  const index = analysis.compilation.model.index;
  for (const file of Object.keys(index).sort()) {
    for (const entry of index[file]) {
      if (entry.key !== named.def.key) continue;
      places.push({
        file,
        span: { start: entry.start, end: entry.end },
        declaration: entry.role === "declaration",
      });
    }
  }
  return places.sort((a, b) => Number(b.declaration) - Number(a.declaration));
}

/** A definition's item in its file's tree. */
export function declarationOf(analysis: Analysis, def: Definition): Item | undefined {
  return analysis.file(def.file)?.parse.tree.items.find((item) =>
    item.kind !== "Error" && item.name.start === def.nameSpan.start
  );
}

/** A variant of an enum, or a field of a record, of the compilation. */
export interface Member {
  readonly kind: "variant" | "field";
  /** The enum or record. */
  readonly owner: Definition;
  readonly index: number;
}

/** A place that names a member: its declaration, or a use the checker resolved. */
export interface MemberPlace {
  readonly member: Member;
  readonly span: Span;
  readonly declaration: boolean;
}

function sameMember(a: Member, b: Member): boolean {
  return a.kind === b.kind && a.owner.key === b.owner.key && a.index === b.index;
}

/**
 * Every place in a file that names a variant or a field: the declarations
 * of its enums and records, and the uses the checker resolved (`E.V` in an
 * expression or a pattern, `value.f`, `R { f: … }`). The prelude's variants
 * have no declaration in the compilation and are left out.
 */
function memberPlaces(analysis: Analysis, path: string): MemberPlace[] {
  const file = analysis.file(path);
  const resolutions = analysis.resolutionsOf(path) ?? undefined;
  if (file === undefined || resolutions === undefined) return [];
  const model = analysis.compilation.model;
  const out: MemberPlace[] = [];
  const add = (
    key: string,
    kind: Member["kind"],
    index: number,
    span: Span,
    declaration = false,
  ) => {
    const owner = findDefinition(model, key);
    if (owner !== null) out.push({ member: { kind, owner, index }, span, declaration });
  };
  for (const item of file.parse.tree.items) {
    if (item.kind !== "RecordDecl" && item.kind !== "EnumDecl") continue;
    const def = definitionAt(model, path, item.name.start);
    if (def === null || def.nameSpan.start !== item.name.start) continue;
    const members = item.kind === "RecordDecl" ? item.fields : item.variants;
    const kind = item.kind === "RecordDecl" ? "field" : "variant";
    members.forEach((m, i) => add(def.key, kind, i, m.name, true));
  }
  walk(file.parse.tree, (node) => {
    if (node.kind === "FieldExpr") {
      const resolved = resolutions.values.get(node);
      if (resolved?.kind === "variant") add(resolved.enumKey, "variant", resolved.index, node.name);
      else if (resolved?.kind === "field") {
        add(resolved.recordKey, "field", resolved.index, node.name);
      }
    } else if (node.kind === "VariantPattern") {
      const resolved = resolutions.variants.get(node);
      const name = node.path[node.path.length - 1];
      if (resolved !== undefined && name !== undefined) {
        add(resolved.enumKey, "variant", resolved.index, name);
      }
    } else if (node.kind === "RecordLit") {
      const key = resolutions.records.get(node);
      const record = key === undefined ? null : findDefinition(model, key);
      const decl = record === null ? undefined : declarationOf(analysis, record);
      if (key === undefined || decl?.kind !== "RecordDecl") return;
      for (const init of node.fields) {
        const index = decl.fields.findIndex((f) => f.name.text === init.name.text);
        if (index >= 0) add(key, "field", index, init.name);
      }
    }
  });
  return out;
}

/** The variant or field named at an offset, where {@link namedAt} finds nothing. */
export function memberAt(analysis: Analysis, path: string, offset: number): MemberPlace | null {
  if (!mayNameMember(analysis, path, offset)) return null;
  return memberPlaces(analysis, path).find((p) => contains(p.span, offset)) ?? null;
}

/**
 * Whether the identifier at the offset may name a variant or a field: after
 * a `.`, before a `:`, or in an enum's list of variants. Finding out needs
 * the checker's resolutions, made by a whole analysis: a hover over a
 * keyword or a space must not pay for one.
 */
function mayNameMember(analysis: Analysis, path: string, offset: number): boolean {
  const file = analysis.file(path);
  if (file === undefined) return false;
  const tokens = file.parse.tokens;
  const at = identifierAt(tokens, offset);
  if (at === null) return false;
  if (neighbour(tokens, at, -1) === TokenKind.Dot || neighbour(tokens, at, 1) === TokenKind.Colon) {
    return true;
  }
  const start = tokens.start(at);
  return file.parse.tree.items.some((item) =>
    item.kind === "EnumDecl" && item.variants.some((v) => v.name.start === start)
  );
}

/** The identifier token around an offset (or just before it), by bisection. */
export function identifierAt(tokens: TokenStream, offset: number): number | null {
  // The first token that ends at or after the offset, then the identifier there.
  let lo = 0;
  let hi = tokens.count - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens.end(mid) < offset) lo = mid + 1;
    else hi = mid;
  }
  return [lo, lo + 1].find((i) =>
    i < tokens.count && tokens.kind(i) === TokenKind.Ident && tokens.start(i) <= offset &&
    offset <= tokens.end(i)
  ) ?? null;
}

/** The kind of the nearest token that is not trivia, `step` (±1) from token `at`. */
function neighbour(tokens: TokenStream, at: number, step: 1 | -1): TokenKind {
  let i = at + step;
  while (i >= 0 && i < tokens.count && tokens.isTrivia(i)) i += step;
  return i >= 0 && i < tokens.count ? tokens.kind(i) : TokenKind.Eof;
}

/**
 * The module of the compilation named at an offset: a segment of an import's
 * path (`lib.util` up to that segment), an import's alias, or the name a
 * module is bound to where it qualifies a name (`u` in `u.one()`) and no
 * local of that name is in scope there. Call it only where {@link namedAt}
 * found nothing: a local that shadows a module's name is found there first.
 */
export function moduleAt(
  analysis: Analysis,
  path: string,
  offset: number,
): { readonly module: CompiledFile; readonly span: Span } | null {
  const file = analysis.file(path);
  if (file === undefined) return null;
  const named = (name: string | undefined, span: Span) => {
    const module = analysis.compilation.files.find((f) => f.module === name);
    return module === undefined ? null : { module, span: { start: span.start, end: span.end } };
  };
  for (const imp of file.parse.tree.imports) {
    const segment = imp.path.findIndex((s) => contains(s, offset));
    if (segment >= 0) return named(dotted(imp.path.slice(0, segment + 1)), imp.path[segment]);
    if (imp.alias !== null && contains(imp.alias, offset)) {
      return named(importModuleName(imp), imp.alias);
    }
  }
  const tokens = file.parse.tokens;
  const at = identifierAt(tokens, offset);
  if (at === null || neighbour(tokens, at, 1) !== TokenKind.Dot) return null;
  if (neighbour(tokens, at, -1) === TokenKind.Dot) return null;
  const span = { start: tokens.start(at), end: tokens.end(at) };
  return named(moduleBindings(file.parse.tree).get(analysis.textOf(path)!.text(span)), span);
}

/**
 * Every place in the compilation that names a module: in each file, the
 * import that binds it (its alias, else its path's last segment: what
 * binds the name, so a declaration) and each use of that name qualifying
 * another (`u.one()`), except where a local of the same name shadows it.
 */
export function placesOfModule(
  analysis: Analysis,
  module: string,
): { readonly file: string; readonly span: Span; readonly declaration: boolean }[] {
  const places: { file: string; span: Span; declaration: boolean }[] = [];
  for (const file of [...analysis.compilation.files].sort((a, b) => a.path < b.path ? -1 : 1)) {
    const tree = file.parse.tree;
    const names = new Set<string>();
    for (const imp of tree.imports) {
      if (importModuleName(imp) !== module || imp.path.length === 0) continue;
      const binder = imp.alias ?? imp.path[imp.path.length - 1];
      places.push({
        file: file.path,
        span: { start: binder.start, end: binder.end },
        declaration: imp.names === null,
      });
      if (imp.names === null) names.add(binder.text);
    }
    if (names.size === 0) continue;
    const tokens = file.parse.tokens;
    const map = analysis.textOf(file.path)!;
    for (let i = 0; i < tokens.count; i++) {
      if (tokens.kind(i) !== TokenKind.Ident) continue;
      if (neighbour(tokens, i, 1) !== TokenKind.Dot || neighbour(tokens, i, -1) === TokenKind.Dot) {
        continue;
      }
      const span = { start: tokens.start(i), end: tokens.end(i) };
      if (!names.has(map.text(span)) || namedAt(analysis, file.path, span.start) !== null) continue;
      places.push({ file: file.path, span, declaration: false });
    }
  }
  return places.sort((a, b) =>
    Number(b.declaration) - Number(a.declaration) ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span.start - b.span.start)
  );
}

/** The module path an import's first segments name (`lib` of `lib.util`). */
function dotted(segments: readonly { readonly text: string }[]): string {
  return segments.map((s) => s.text).join(".");
}

/** The names imports bind to modules (`import lib.util` binds `util`, `as u` binds `u`), to the module's path. */
export function moduleBindings(tree: SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const imp of tree.imports) {
    if (imp.names === null) {
      out.set(importAliasName(imp), importModuleName(imp));
    }
  }
  return out;
}

/** Every place that names a member: declaration first, then uses in file and offset order. */
export function placesOfMember(
  analysis: Analysis,
  member: Member,
): { readonly file: string; readonly span: Span; readonly declaration: boolean }[] {
  const places: { file: string; span: Span; declaration: boolean }[] = [];
  for (const file of analysis.compilation.files.map((f) => f.path).sort()) {
    for (const place of memberPlaces(analysis, file)) {
      if (sameMember(place.member, member)) {
        places.push({ file, span: place.span, declaration: place.declaration });
      }
    }
  }
  return places.sort((a, b) =>
    Number(b.declaration) - Number(a.declaration) ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span.start - b.span.start)
  );
}
