/**
 * The answers that read: hover, definition, references, highlights,
 * symbols, completion, signature help, inlay hints and semantic tokens.
 * Each reads the analysis every fact reads (the model's index, definitions,
 * bindings and the checker's inferred types), or, outside the compilation,
 * the buffer's own syntax.
 *
 * @module
 */
import {
  type CompletionItem,
  CompletionItemKind,
  type DocumentHighlight,
  DocumentHighlightKind,
  type DocumentSymbol,
  type Hover,
  type InlayHint,
  InlayHintKind,
  type Location,
  MarkupKind,
  type Range,
  type SignatureHelp,
  SymbolKind,
  type WorkspaceSymbol,
} from "vscode-languageserver/node";
import type { Span } from "../base/mod.ts";
import {
  type Definition,
  findDefinition,
  PRELUDE_FUNCTIONS,
  PRELUDE_TYPE_DOCS,
  PRELUDE_TYPES,
  PRELUDE_VARIANTS,
  preludeEnumHead,
  preludeVariantText,
  showType,
  type Type,
} from "../semantics/mod.ts";
import {
  type FieldDecl,
  type Item,
  KEYWORDS,
  type LetStmt,
  type ParseResult,
  type SourceFile,
  TokenKind,
  type TokenStream,
  type VariantDecl,
  walk,
} from "../syntax/mod.ts";
import {
  declarationOf,
  enclosing,
  identifierAt,
  type Member,
  memberAt,
  moduleAt,
  moduleBindings,
  type Named,
  namedAt,
  placesOf,
  placesOfMember,
  placesOfModule,
} from "./lookup.ts";
import type { TextMap } from "./text.ts";
import type { Analysis, Located, Workspace } from "./workspace.ts";

// ---------------------------------------------------------------- hover and navigation

function code(text: string): string {
  return "```nazm\n" + text + "\n```";
}

/** The inferred type of each unannotated `let` in a file, by the offset of its name. */
function inferredLets(
  analysis: Analysis,
  path: string,
): Map<number, { stmt: LetStmt; type: Type }> {
  const out = new Map<number, { stmt: LetStmt; type: Type }>();
  const lets = analysis.resolutionsOf(path)?.lets;
  const file = analysis.file(path);
  if (lets === undefined || file === undefined) return out;
  walk(file.parse.tree, (node) => {
    if (node.kind !== "LetStmt" || node.binding.kind !== "NameDecl") return;
    const type = lets.get(node.binding);
    if (type !== undefined) out.set(node.binding.start, { stmt: node, type });
  });
  return out;
}

/** A local's type as written or inferred, or null (a pattern's binding). */
function localType(analysis: Analysis, named: Extract<Named, { kind: "local" }>): string | null {
  const { owner, binding } = named;
  const file = analysis.file(owner.file)!;
  const map = analysis.textOf(owner.file)!;
  const inferred = inferredLets(analysis, owner.file).get(binding.declSpan.start);
  if (inferred !== undefined) return showType(null, inferred.type);
  const patterns = analysis.resolutionsOf(owner.file)?.patterns;
  let found: string | null = null;
  walk(file.parse.tree, (node) => {
    if (node.start > binding.declSpan.start || node.end < binding.declSpan.end) return false;
    if (node.kind === "Param" && node.name.start === binding.declSpan.start) {
      found = map.text(node.type);
    } else if (
      node.kind === "LetStmt" && node.binding.start === binding.declSpan.start && node.type !== null
    ) {
      found = map.text(node.type);
    } else if (
      binding.kind === "pattern" && node.kind === "NameDecl" &&
      node.start === binding.declSpan.start && patterns !== undefined
    ) {
      const type = patterns.get(node);
      if (type !== undefined) found = showType(null, type);
    }
    return true;
  });
  return found;
}

export function hover(analysis: Analysis, path: string, offset: number): Hover | null {
  const map = analysis.textOf(path)!;
  const named = namedAt(analysis, path, offset);
  if (named?.kind === "definition") {
    const def = named.def;
    const doc = def.doc === null ? "" : `\n\n${def.doc}`;
    return {
      contents: { kind: MarkupKind.Markdown, value: code(def.signature) + doc },
      range: map.range(spanAt(analysis, path, offset, def) ?? def.nameSpan),
    };
  }
  if (named?.kind === "local") {
    const { binding } = named;
    const type = binding.kind === "type_parameter" ? null : localType(analysis, named);
    const label = binding.kind === "type_parameter"
      ? `type parameter ${binding.name}`
      : `${binding.kind === "let" ? "let " : ""}${binding.name}${type === null ? "" : `: ${type}`}`;
    return { contents: { kind: MarkupKind.Markdown, value: code(label) } };
  }
  const place = named === null ? memberAt(analysis, path, offset) : null;
  const memberDecl = place === null ? null : memberDeclaration(analysis, place.member);
  if (place !== null && memberDecl !== null) {
    const { owner } = place.member;
    const text = analysis.textOf(owner.file)!.text(memberDecl);
    return {
      contents: { kind: MarkupKind.Markdown, value: code(`${owner.kind} ${owner.name}\n${text}`) },
      range: map.range(place.span),
    };
  }
  const module = named === null ? moduleAt(analysis, path, offset) : null;
  if (module !== null) {
    return {
      contents: {
        kind: MarkupKind.Markdown,
        value: `${code(`module ${module.module.module}`)}\n\n${module.module.path}`,
      },
      range: map.range(module.span),
    };
  }
  const prelude = preludeAt(analysis, path, offset);
  return prelude === null ? null : {
    contents: {
      kind: MarkupKind.Markdown,
      value: `${code(prelude.declaration)}${prelude.doc === "" ? "" : `\n\n${prelude.doc}`}`,
    },
    range: map.range(prelude.span),
  };
}

/**
 * The prelude function, type or variant an identifier names, when nothing
 * of the compilation is named there (a definition or local of the same
 * name is found first): what its hover shows.
 */
function preludeAt(
  analysis: Analysis,
  path: string,
  offset: number,
): { span: Span; declaration: string; doc: string } | null {
  const tokens = analysis.file(path)?.parse.tokens;
  const at = tokens === undefined ? null : identifierAt(tokens, offset);
  if (tokens === undefined || at === null) return null;
  const span = { start: tokens.start(at), end: tokens.end(at) };
  const text = analysis.textOf(path)!.text(span);
  const fn = PRELUDE_FUNCTIONS.get(text);
  if (fn !== undefined) return { span, declaration: fn.signature, doc: fn.doc };
  const type = PRELUDE_TYPE_DOCS.get(text);
  if (type !== undefined) return { span, ...type };
  const variant = PRELUDE_VARIANTS.get(text);
  if (variant === undefined) return null;
  const declaration = `${preludeEnumHead(variant.enumName)}\n${preludeVariantText(variant)}`;
  return { span, declaration, doc: "" };
}

function spanAt(analysis: Analysis, path: string, offset: number, def: Definition) {
  return (analysis.compilation.model.index[path] ?? []).find((e) =>
    e.start <= offset && offset <= e.end && e.key === def.key
  );
}

export function definition(
  workspace: Workspace,
  analysis: Analysis,
  path: string,
  offset: number,
): Location | null {
  const named = namedAt(analysis, path, offset);
  const module = named === null ? moduleAt(analysis, path, offset) : null;
  if (module !== null) {
    const start = { line: 0, character: 0 };
    return { uri: workspace.uriOf(module.module.path), range: { start, end: start } };
  }
  if (named === null) {
    const member = memberAt(analysis, path, offset)?.member ?? null;
    const decl = member === null ? null : memberDeclaration(analysis, member);
    if (member === null || decl === null) return null;
    const file = member.owner.file;
    return { uri: workspace.uriOf(file), range: analysis.textOf(file)!.range(decl.name) };
  }
  const [file, span] = named.kind === "definition"
    ? [named.def.file, named.def.nameSpan]
    : [named.owner.file, named.binding.declSpan];
  return { uri: workspace.uriOf(file), range: analysis.textOf(file)!.range(span) };
}

export function references(
  workspace: Workspace,
  analysis: Analysis,
  path: string,
  offset: number,
  includeDeclaration: boolean,
): Location[] | null {
  const places = placesAt(analysis, path, offset);
  if (places === null) return null;
  return places
    .filter((p) => includeDeclaration || !p.declaration)
    .map((p) => ({ uri: workspace.uriOf(p.file), range: analysis.textOf(p.file)!.range(p.span) }));
}

export function highlights(analysis: Analysis, path: string, offset: number): DocumentHighlight[] {
  const places = placesAt(analysis, path, offset);
  if (places === null) return [];
  const map = analysis.textOf(path)!;
  return places.filter((p) => p.file === path).map((p) => ({
    range: map.range(p.span),
    kind: p.declaration ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}

/** Every place that names what the offset names: a definition, a local, a module, a variant or a field. */
function placesAt(analysis: Analysis, path: string, offset: number) {
  const named = namedAt(analysis, path, offset);
  if (named !== null) return placesOf(analysis, named);
  const module = moduleAt(analysis, path, offset);
  if (module !== null) return placesOfModule(analysis, module.module.module);
  const place = memberAt(analysis, path, offset);
  return place === null ? null : placesOfMember(analysis, place.member);
}

/** The declaration of a variant or a field, in its enum's or record's tree. */
function memberDeclaration(
  analysis: Analysis,
  member: Member,
): VariantDecl | FieldDecl | null {
  const decl = declarationOf(analysis, member.owner);
  const members = decl?.kind === "EnumDecl"
    ? decl.variants
    : decl?.kind === "RecordDecl"
    ? decl.fields
    : [];
  return members[member.index] ?? null;
}

// ---------------------------------------------------------------- symbols

const SYMBOL_KIND = {
  function: SymbolKind.Function,
  record: SymbolKind.Struct,
  enum: SymbolKind.Enum,
};

/** The file's definitions and tests from its syntax, with the model's signatures where analysed. */
export function documentSymbols(located: Located): DocumentSymbol[] {
  const [tree, map, signature] = located.kind === "compiled"
    ? [
      located.analysis.file(located.path)?.parse.tree,
      located.analysis.textOf(located.path)!,
      (item: Item) =>
        located.analysis.compilation.model.definitions.find((d) =>
          d.file === located.path && "name" in item && d.nameSpan.start === item.name.start
        )?.signature,
    ]
    : [located.syntax.parse?.tree, located.syntax.map, () => undefined];
  if (tree === undefined) return [];
  const symbols: DocumentSymbol[] = [];
  for (const item of tree.items) {
    if (item.kind === "Error") continue;
    const name = item.name.text;
    if (name === "") continue;
    const symbol: DocumentSymbol = {
      name,
      kind: item.kind === "TestDecl"
        ? SymbolKind.Method
        : item.kind === "FnDecl"
        ? SymbolKind.Function
        : item.kind === "RecordDecl"
        ? SymbolKind.Struct
        : SymbolKind.Enum,
      range: map.range(item),
      selectionRange: map.range(item.name),
    };
    const detail = item.kind === "TestDecl" ? "test" : signature(item);
    if (detail !== undefined) symbol.detail = detail;
    if (item.kind === "RecordDecl") {
      symbol.children = item.fields.map((f) => ({
        name: f.name.text,
        kind: SymbolKind.Field,
        range: map.range(f),
        selectionRange: map.range(f.name),
      }));
    } else if (item.kind === "EnumDecl") {
      symbol.children = item.variants.map((v) => ({
        name: v.name.text,
        kind: SymbolKind.EnumMember,
        range: map.range(v),
        selectionRange: map.range(v.name),
      }));
    }
    symbols.push(symbol);
  }
  return symbols;
}

/** At most this many workspace symbols per query. */
const MAX_SYMBOLS = 500;

function fuzzy(query: string, name: string): boolean {
  let i = 0;
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  for (let k = 0; k < n.length && i < q.length; k++) if (n[k] === q[i]) i++;
  return i === q.length;
}

export function workspaceSymbols(
  workspace: Workspace,
  analysis: Analysis,
  query: string,
): WorkspaceSymbol[] {
  const out: WorkspaceSymbol[] = [];
  for (const def of analysis.compilation.model.definitions) {
    if (!fuzzy(query, def.name)) continue;
    out.push({
      name: def.name,
      kind: SYMBOL_KIND[def.kind],
      containerName: def.module,
      location: {
        uri: workspace.uriOf(def.file),
        range: analysis.textOf(def.file)!.range(def.nameSpan),
      },
    });
    if (out.length >= MAX_SYMBOLS) break;
  }
  return out;
}

// ---------------------------------------------------------------- completion

/** The tokens of a file before an offset, trivia left out, last first. */
function tokensBefore(tokens: TokenStream, offset: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < tokens.count && tokens.start(i) < offset; i++) {
    if (!tokens.isTrivia(i) && tokens.kind(i) !== TokenKind.Eof) out.push(i);
  }
  return out.reverse();
}

function importedNames(tree: SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const imp of tree.imports) {
    const module = imp.path.map((p) => p.text).join(".");
    for (const n of imp.names ?? []) out.set(n.text, module);
  }
  return out;
}

function definitionItem(def: Definition): CompletionItem {
  return {
    label: def.name,
    kind: def.kind === "function"
      ? CompletionItemKind.Function
      : def.kind === "record"
      ? CompletionItemKind.Struct
      : CompletionItemKind.Enum,
    detail: def.signature,
    documentation: def.doc ?? undefined,
  };
}

function exportsOf(analysis: Analysis, module: string): CompletionItem[] {
  return analysis.compilation.model.definitions
    .filter((d) => d.module === module && d.exported)
    .map(definitionItem);
}

/** The record or enum declaration of a definition, from its file's tree. */
function variantsOf(analysis: Analysis, def: Definition): CompletionItem[] {
  const decl = declarationOf(analysis, def);
  if (decl?.kind !== "EnumDecl") return [];
  const map = analysis.textOf(def.file)!;
  return decl.variants.map((v) => ({
    label: v.name.text,
    kind: CompletionItemKind.EnumMember,
    detail: map.text(v),
  }));
}

function fieldsOf(analysis: Analysis, def: Definition): CompletionItem[] {
  const decl = declarationOf(analysis, def);
  if (decl?.kind !== "RecordDecl") return [];
  const map = analysis.textOf(def.file)!;
  return decl.fields.map((f) => ({
    label: f.name.text,
    kind: CompletionItemKind.Field,
    detail: map.text(f),
  }));
}

/** The definition a name means at the top level of a module: its own, or imported by name. */
function visibleDefinition(
  analysis: Analysis,
  module: string,
  tree: SourceFile,
  name: string,
): Definition | null {
  const own = findDefinition(analysis.compilation.model, `${module}::${name}`);
  if (own !== null) return own;
  const from = importedNames(tree).get(name);
  return from === undefined ? null : findDefinition(analysis.compilation.model, `${from}::${name}`);
}

/** The record a local's type names, through its inferred type or its written annotation. */
function recordOfLocal(
  analysis: Analysis,
  path: string,
  owner: Definition,
  name: string,
  offset: number,
): Definition | null {
  const binding = [...owner.bindings].reverse().find((b) =>
    b.name === name && b.declSpan.end <= offset
  );
  if (binding === undefined) return null;
  const inferred = inferredLets(analysis, path).get(binding.declSpan.start);
  if (inferred !== undefined) {
    return inferred.type.kind === "con"
      ? findDefinition(analysis.compilation.model, inferred.type.name)
      : null;
  }
  let typeName: number | null = null;
  walk(analysis.file(path)!.parse.tree, (node) => {
    if (node.start > binding.declSpan.start || node.end < binding.declSpan.end) return false;
    const type = node.kind === "Param" && node.name.start === binding.declSpan.start
      ? node.type
      : node.kind === "LetStmt" && node.binding.start === binding.declSpan.start
      ? node.type
      : null;
    if (type?.kind === "NamedType") typeName = type.path[type.path.length - 1].start;
    return true;
  });
  if (typeName === null) return null;
  const entry = (analysis.compilation.model.index[path] ?? []).find((e) => e.start === typeName);
  return entry === undefined ? null : findDefinition(analysis.compilation.model, entry.key);
}

function preludeItems(): CompletionItem[] {
  return [
    ...[...PRELUDE_FUNCTIONS.values()].map((f) => ({
      label: f.name,
      kind: CompletionItemKind.Function,
      detail: f.signature,
      documentation: f.doc,
    })),
    ...[...PRELUDE_TYPES.keys()].map((name) => ({ label: name, kind: CompletionItemKind.Class })),
    ...[...PRELUDE_VARIANTS.keys()].map((name) => ({
      label: name,
      kind: CompletionItemKind.EnumMember,
    })),
  ];
}

/**
 * What may follow `a.b.`: a local's record fields, through the fields'
 * declared types; a module's exports, or its enum's variants; an enum's
 * variants.
 */
function membersAfter(
  analysis: Analysis,
  path: string,
  tree: SourceFile,
  offset: number,
  [head, ...rest]: readonly string[],
): CompletionItem[] {
  const model = analysis.compilation.model;
  const owner = enclosing(analysis, path, offset);
  if (owner?.bindings.some((b) => b.name === head && b.declSpan.end <= offset)) {
    let record = recordOfLocal(analysis, path, owner, head, offset);
    for (const field of rest) {
      record = record?.kind === "record" ? recordOfField(analysis, record, field) : null;
    }
    return record?.kind === "record" ? fieldsOf(analysis, record) : [];
  }
  const module = analysis.compilation.files.find((f) => f.path === path)!.module;
  const from = moduleBindings(tree).get(head);
  if (from !== undefined) {
    if (rest.length === 0) return exportsOf(analysis, from);
    const def = rest.length === 1 ? findDefinition(model, `${from}::${rest[0]}`) : null;
    return def?.kind === "enum" ? variantsOf(analysis, def) : [];
  }
  if (rest.length > 0) return [];
  if (head === "Option" || head === "Result") {
    return [...PRELUDE_VARIANTS.values()].filter((v) => v.enumName === head).map((v) => ({
      label: v.name,
      kind: CompletionItemKind.EnumMember,
    }));
  }
  const def = visibleDefinition(analysis, module, tree, head);
  return def?.kind === "enum" ? variantsOf(analysis, def) : [];
}

/** The record a field's declared type names, or null (another type, a type parameter). */
function recordOfField(analysis: Analysis, record: Definition, name: string): Definition | null {
  const decl = declarationOf(analysis, record);
  if (decl?.kind !== "RecordDecl") return null;
  const type = decl.fields.find((f) => f.name.text === name)?.type;
  if (type?.kind !== "NamedType") return null;
  const at = type.path[type.path.length - 1].start;
  const entry = (analysis.compilation.model.index[record.file] ?? []).find((e) => e.start === at);
  const def = entry === undefined ? null : findDefinition(analysis.compilation.model, entry.key);
  return def?.kind === "record" ? def : null;
}

/**
 * What may be written at the offset: after `import a.`, the modules of the
 * compilation; in `import a.{`, that module's exports; after `m.`, module
 * `m`'s exports; after `Enum.`, its variants; after `value.`, the fields of
 * the value's record type; elsewhere, the names in scope (locals declared
 * before, the module's and imported definitions, module names, the prelude)
 * and the keywords.
 */
export function completion(analysis: Analysis, path: string, offset: number): CompletionItem[] {
  const file = analysis.file(path)!;
  const tokens = file.parse.tokens;
  const before = tokensBefore(tokens, offset);
  const text = (i: number) => tokens.text(i);
  const kind = (k: number) => (k < before.length ? tokens.kind(before[k]) : TokenKind.Eof);
  // The word being typed is replaced by the item: look past it.
  let at = 0;
  if (kind(0) === TokenKind.Ident && tokens.end(before[0]) >= offset) at = 1;
  const lineStartIndex = (() => {
    let k = at;
    while (k < before.length && tokens.kind(before[k]) !== TokenKind.KwImport) {
      const t = tokens.kind(before[k]);
      if (t === TokenKind.Semi || t === TokenKind.RBrace || t === TokenKind.KwFn) return -1;
      k++;
    }
    return k < before.length ? k : -1;
  })();
  const tree = file.parse.tree;
  const module = analysis.compilation.files.find((f) => f.path === path)!.module;
  if (lineStartIndex >= 0) {
    // Inside an import: the path typed so far, from `import` to the cursor.
    const typed = before.slice(at, lineStartIndex).reverse().map(text).join("");
    const brace = typed.lastIndexOf("{");
    if (brace >= 0) return exportsOf(analysis, typed.slice(0, brace).replace(/\.$/, ""));
    const prefix = typed.endsWith(".") ? typed : "";
    const next = new Set<string>();
    for (const f of analysis.compilation.files) {
      if (f.module === module || !f.module.startsWith(prefix)) continue;
      next.add(f.module.slice(prefix.length).split(".")[0]);
    }
    return [...next].sort().map((label) => ({ label, kind: CompletionItemKind.Module }));
  }
  if (kind(at) === TokenKind.Dot) {
    // The path before the dot, `a.b.`, leftmost first; empty after anything else (`"s".`, `f().`).
    const names: string[] = [];
    for (let k = at + 1; kind(k) === TokenKind.Ident; k += 2) {
      names.unshift(text(before[k]));
      if (kind(k + 1) !== TokenKind.Dot) break;
    }
    return names.length === 0 ? [] : membersAfter(analysis, path, tree, offset, names);
  }
  const items = new Map<string, CompletionItem>();
  const add = (item: CompletionItem) => {
    if (!items.has(item.label)) items.set(item.label, item);
  };
  const owner = enclosing(analysis, path, offset);
  if (owner !== null) {
    const inScope = (scope: number) => {
      const s = owner.scopes[scope];
      return s !== undefined && s.span.start <= offset && offset <= s.span.end;
    };
    for (const b of [...owner.bindings].reverse()) {
      if (b.declSpan.end > offset || !inScope(b.scope)) continue;
      add({
        label: b.name,
        kind: b.kind === "type_parameter"
          ? CompletionItemKind.TypeParameter
          : CompletionItemKind.Variable,
      });
    }
  }
  for (const def of analysis.compilation.model.definitions) {
    if (def.module === module) add(definitionItem(def));
  }
  for (const [name, from] of importedNames(tree)) {
    const def = findDefinition(analysis.compilation.model, `${from}::${name}`);
    if (def !== null) add(definitionItem(def));
  }
  for (const name of moduleBindings(tree).keys()) {
    add({ label: name, kind: CompletionItemKind.Module });
  }
  for (const item of preludeItems()) add(item);
  for (const word of KEYWORDS) add({ label: word, kind: CompletionItemKind.Keyword });
  return [...items.values()];
}

// ---------------------------------------------------------------- signature help

/** The parameters of a signature's first parenthesized list, as offsets into it. */
function parameterRanges(signature: string): [number, number][] {
  const open = signature.indexOf("(");
  if (open < 0) return [];
  const out: [number, number][] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < signature.length; i++) {
    const c = signature[i];
    if (c === "(" || c === "[") depth++;
    else if ((c === ")" || c === "]") && depth > 0) depth--;
    else if ((c === "," || c === ")") && depth === 0) {
      if (i > start) out.push([start, i]);
      if (c === ")") break;
      start = i + 2;
    }
  }
  return out;
}

export function signatureHelp(
  analysis: Analysis,
  path: string,
  offset: number,
): SignatureHelp | null {
  const file = analysis.file(path)!;
  const tokens = file.parse.tokens;
  const before = tokensBefore(tokens, offset);
  let depth = 0;
  let commas = 0;
  for (let k = 0; k < before.length; k++) {
    const t = tokens.kind(before[k]);
    if (t === TokenKind.RParen || t === TokenKind.RBracket || t === TokenKind.RBrace) depth++;
    else if (t === TokenKind.LBracket || t === TokenKind.LBrace) {
      if (depth === 0) return null;
      depth--;
    } else if (t === TokenKind.LParen) {
      if (depth > 0) {
        depth--;
        continue;
      }
      const callee = before[k + 1];
      if (callee === undefined || tokens.kind(callee) !== TokenKind.Ident) return null;
      const def = namedAt(analysis, path, tokens.start(callee));
      const signature = def?.kind === "definition" && def.def.kind === "function"
        ? { label: def.def.signature, doc: def.def.doc }
        : (() => {
          const prelude = PRELUDE_FUNCTIONS.get(tokens.text(callee));
          return prelude === undefined ? null : { label: prelude.signature, doc: prelude.doc };
        })();
      if (signature === null) return null;
      return {
        signatures: [{
          label: signature.label,
          documentation: signature.doc ?? undefined,
          parameters: parameterRanges(signature.label).map((range) => ({ label: range })),
        }],
        activeSignature: 0,
        activeParameter: commas,
      };
    } else if (t === TokenKind.Comma && depth === 0) commas++;
    else if ((t === TokenKind.Semi || t === TokenKind.KwFn) && depth === 0) return null;
  }
  return null;
}

// ---------------------------------------------------------------- inlay hints

export function inlayHints(analysis: Analysis, path: string, range: Range): InlayHint[] {
  const map = analysis.textOf(path)!;
  const out: InlayHint[] = [];
  for (const { stmt, type } of inferredLets(analysis, path).values()) {
    const position = map.position(stmt.binding.end);
    if (position.line < range.start.line || position.line > range.end.line) continue;
    const text = showType(null, type);
    if (text.includes("_")) continue; // not inferred: N0305 says so
    out.push({ position, label: `: ${text}`, kind: InlayHintKind.Type });
  }
  return out.sort((a, b) =>
    a.position.line - b.position.line || a.position.character - b.position.character
  );
}

// ---------------------------------------------------------------- semantic tokens

export const TOKEN_TYPES = [
  "keyword",
  "function",
  "struct",
  "enum",
  "enumMember",
  "parameter",
  "variable",
  "typeParameter",
  "type",
  "namespace",
  "number",
  "string",
  "comment",
  "operator",
  "property",
] as const;
export const TOKEN_MODIFIERS = ["declaration", "documentation", "defaultLibrary"] as const;

const T = Object.fromEntries(TOKEN_TYPES.map((t, i) => [t, i])) as Record<
  (typeof TOKEN_TYPES)[number],
  number
>;
const DECLARATION = 1;
const DOCUMENTATION = 2;
const DEFAULT_LIBRARY = 4;

const OPERATORS = new Set<number>([
  TokenKind.Arrow,
  TokenKind.FatArrow,
  TokenKind.Eq,
  TokenKind.EqEq,
  TokenKind.BangEq,
  TokenKind.Lt,
  TokenKind.Le,
  TokenKind.Gt,
  TokenKind.Ge,
  TokenKind.Plus,
  TokenKind.Minus,
  TokenKind.Star,
  TokenKind.Slash,
  TokenKind.Percent,
  TokenKind.Bang,
  TokenKind.AmpAmp,
  TokenKind.PipePipe,
  TokenKind.DotDot,
]);

/**
 * Variants and fields, from the syntax and the roles the model gave: a
 * declaration, a record literal's field, a variant a pattern names, and
 * `x.name` where nothing else is named — a variant when `x` is an enum
 * (`Color.Red`, `u.Color.Red`), else a field. A name the model knows keeps
 * its role (a function a module qualifies, a local a shorthand field reads).
 */
function memberRoles(tree: SourceFile, roles: Map<number, [number, number]>): void {
  const set = (start: number, role: [number, number]) => {
    if (!roles.has(start)) roles.set(start, role);
  };
  walk(tree, (node) => {
    switch (node.kind) {
      case "VariantDecl":
        set(node.name.start, [T.enumMember, DECLARATION]);
        break;
      case "FieldDecl":
        set(node.name.start, [T.property, DECLARATION]);
        break;
      case "FieldInit":
        set(node.name.start, [T.property, 0]);
        break;
      case "VariantPattern":
        if (node.path.length > 1) set(node.path[node.path.length - 1].start, [T.enumMember, 0]);
        break;
      case "FieldExpr": {
        const target = node.target.kind === "FieldExpr" ? node.target.name : node.target;
        const ofEnum = roles.get(target.start)?.[0] === T.enum;
        set(node.name.start, [ofEnum ? T.enumMember : T.property, 0]);
        break;
      }
    }
    return true;
  });
}

/** Five numbers a token, relative to the previous one, as the protocol encodes them. */
export function semanticTokens(located: Located): number[] {
  const [parse, map]: [ParseResult | null | undefined, TextMap] = located.kind === "compiled"
    ? [located.analysis.file(located.path)?.parse, located.analysis.textOf(located.path)!]
    : [located.syntax.parse, located.syntax.map];
  if (parse === null || parse === undefined) return [];
  const roles = new Map<number, [number, number]>();
  if (located.kind === "compiled") {
    const { analysis, path } = located;
    const model = analysis.compilation.model;
    for (const entry of model.index[path] ?? []) {
      const def = findDefinition(model, entry.key);
      if (def === null) continue;
      const type = def.kind === "function" ? T.function : def.kind === "record" ? T.struct : T.enum;
      roles.set(entry.start, [type, entry.role === "declaration" ? DECLARATION : 0]);
    }
    for (const def of model.definitions) {
      if (def.file !== path) continue;
      for (const b of def.bindings) {
        const type = b.kind === "parameter"
          ? T.parameter
          : b.kind === "type_parameter"
          ? T.typeParameter
          : T.variable;
        roles.set(b.declSpan.start, [type, DECLARATION]);
        for (const r of b.references) roles.set(r.span.start, [type, 0]);
      }
    }
    for (const imp of parse.tree.imports) {
      for (const segment of imp.path) roles.set(segment.start, [T.namespace, 0]);
      if (imp.alias !== null) roles.set(imp.alias.start, [T.namespace, DECLARATION]);
    }
    memberRoles(parse.tree, roles);
  }
  const tokens = parse.tokens;
  const data: number[] = [];
  let lastLine = 0;
  let lastChar = 0;
  const emit = (start: number, end: number, type: number, modifiers: number) => {
    const from = map.position(start);
    const to = map.position(end);
    // A token over several lines is sent line by line: clients need not support multi-line ones.
    for (let line = from.line; line <= to.line; line++) {
      const startChar = line === from.line ? from.character : 0;
      const endChar = line === to.line
        ? to.character
        : map.position(Math.max(start, map.lineEnd(line))).character;
      if (endChar <= startChar) continue;
      data.push(
        line - lastLine,
        line === lastLine ? startChar - lastChar : startChar,
        endChar - startChar,
        type,
        modifiers,
      );
      lastLine = line;
      lastChar = startChar;
    }
  };
  for (let i = 0; i < tokens.count; i++) {
    const k = tokens.kind(i);
    const start = tokens.start(i);
    const end = tokens.end(i);
    if (k === TokenKind.Ident) {
      const role = roles.get(start);
      if (role !== undefined) emit(start, end, role[0], role[1]);
      else {
        const name = tokens.text(i);
        if (PRELUDE_TYPES.has(name)) emit(start, end, T.type, DEFAULT_LIBRARY);
        else if (PRELUDE_VARIANTS.has(name)) emit(start, end, T.enumMember, DEFAULT_LIBRARY);
        else if (PRELUDE_FUNCTIONS.has(name)) emit(start, end, T.function, DEFAULT_LIBRARY);
      }
    } else if (k >= TokenKind.KwFn && k <= TokenKind.KwReserved) emit(start, end, T.keyword, 0);
    else if (k === TokenKind.Int || k === TokenKind.Float) emit(start, end, T.number, 0);
    else if (k === TokenKind.String) emit(start, end, T.string, 0);
    else if (k === TokenKind.LineComment || k === TokenKind.BlockComment) {
      emit(start, end, T.comment, 0);
    } else if (k === TokenKind.DocComment) emit(start, end, T.comment, DOCUMENTATION);
    else if (OPERATORS.has(k)) emit(start, end, T.operator, 0);
  }
  return data;
}
