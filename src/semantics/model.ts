/**
 * The semantic model: plain data about every durable definition (function,
 * record, enum) of a compilation — identity, place, signature, doc, its
 * links to other definitions with every occurrence, its locals and scopes,
 * a structural shape and its diagnostics — and an index from a byte offset
 * to the definition declared or referenced there.
 *
 * Relations (docs/specification.md §11):
 * - `calls`: functions named as the callee of a call (`f(x)`, `m.f(x)`).
 * - `uses`: every other reference in an expression or pattern: a function
 *   named without being called (`let g = f`), a record constructed
 *   (`Point { ... }`), an enum whose variant is named (`Shape.Circle`).
 * - `types`: records and enums named in a type position (parameters,
 *   result, fields, payloads, `let` annotations, type arguments).
 * - `usedBy` is the inverse of `uses` ∪ `types`; `calledBy` of `calls`.
 * Self-references count. Prelude items never appear.
 *
 * @module
 */
import type { Diagnostic, Json, Span } from "../base/mod.ts";
import type { TypeExpr } from "../syntax/mod.ts";
import type { DefInfo, DefKind, ModuleInfo } from "./binder.ts";
import type {
  BindingKind,
  CheckResult,
  DefReferences,
  OuterName,
  Ref,
  RefRole,
  Signature,
} from "./links.ts";
import type { Type } from "./types.ts";

/** One place in a file. */
export interface Occurrence {
  readonly file: string;
  readonly span: Span;
}

/** A relation to another definition, with every place it is made. */
export interface Link {
  readonly key: string;
  /** Sorted by file, then offset. */
  readonly occurrences: readonly Occurrence[];
}

/** A local, parameter, pattern binding or type parameter of a definition. */
export interface Binding {
  readonly name: string;
  readonly kind: BindingKind;
  readonly declSpan: Span;
  /** The scope it is declared in (an index into the definition's `scopes`). */
  readonly scope: number;
  readonly references: readonly { readonly span: Span; readonly scope: number }[];
}

/** A lexical scope; 0 is the whole definition. */
export interface Scope {
  readonly id: number;
  readonly parent: number | null;
  readonly span: Span;
}

export interface Definition {
  /**
   * `module.path::name`, unique and durable; a second (third, …) definition
   * of a name its module already defines (N0204) is `module.path::name#2`.
   */
  readonly key: string;
  readonly kind: DefKind;
  readonly name: string;
  readonly module: string;
  readonly exported: boolean;
  readonly file: string;
  /** The whole declaration, its doc comment included. */
  readonly span: Span;
  readonly nameSpan: Span;
  /** Canonical one-line text, e.g. `pub fn area(s: Shape) -> Int`. */
  readonly signature: string;
  readonly doc: string | null;
  readonly uses: readonly Link[];
  readonly types: readonly Link[];
  readonly usedBy: readonly Link[];
  readonly calls: readonly Link[];
  readonly calledBy: readonly Link[];
  readonly bindings: readonly Binding[];
  readonly scopes: readonly Scope[];
  /** Names in the body that resolve to something other than a local (for capture checks). */
  readonly outerNames: readonly OuterName[];
  /** Structural, JSON-able, from durable identities only (no offsets, no lines). */
  readonly shape: Json;
  /** The diagnostics whose primary place lies inside the declaration. */
  readonly diagnostics: readonly Diagnostic[];
}

export type IndexRole = "declaration" | RefRole | "import";

/** One name in a file that denotes a durable definition. */
export interface IndexEntry {
  readonly start: number;
  readonly end: number;
  readonly key: string;
  readonly role: IndexRole;
}

/**
 * A test function's body: not a durable definition (it has no links, no
 * shape and no snapshot entry), kept so that a rename plan sees the names
 * its body uses and the locals that could capture them.
 */
export interface TestBody {
  /** `module.path::name`, in the module's namespace of tests. */
  readonly key: string;
  readonly name: string;
  readonly module: string;
  readonly file: string;
  readonly span: Span;
  readonly nameSpan: Span;
  readonly bindings: readonly Binding[];
  readonly scopes: readonly Scope[];
  readonly outerNames: readonly OuterName[];
}

export interface SemanticModel {
  /** Sorted by key. */
  readonly definitions: readonly Definition[];
  /** The test functions, by module path then source order. */
  readonly tests: readonly TestBody[];
  /** Per file (relative path), the names denoting definitions, sorted by offset. */
  readonly index: { readonly [file: string]: readonly IndexEntry[] };
}

/** The definition with this key, or null. */
export function findDefinition(model: SemanticModel, key: string): Definition | null {
  const defs = model.definitions;
  let lo = 0;
  let hi = defs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = defs[mid].key;
    if (k === key) return defs[mid];
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

/**
 * The definition declared or referenced at a byte offset of a file: on a
 * declaration's name, a reference in an expression, pattern or type, an
 * imported name (`{Shape}`), the member of a qualified name (`shapes.area`).
 * An offset just past a name still finds it. Null elsewhere.
 */
export function definitionAt(
  model: SemanticModel,
  file: string,
  offset: number,
): Definition | null {
  const key = keyAt(model, file, offset);
  return key === null ? null : findDefinition(model, key);
}

/** The key of the definition declared or named at an offset of a file, or null. */
export function keyAt(model: SemanticModel, file: string, offset: number): string | null {
  const entries = model.index[file];
  if (entries === undefined) return null;
  let lo = 0;
  let hi = entries.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return null;
  const entry = entries[found];
  if (offset > entry.end) return null;
  return entry.key;
}

// ---------------------------------------------------------------- building

function typeText(te: TypeExpr): string {
  switch (te.kind) {
    case "NamedType": {
      const name = te.path.map((p) => p.text).join(".");
      return te.args.length === 0 ? name : `${name}[${te.args.map(typeText).join(", ")}]`;
    }
    case "FnType":
      return `fn(${te.params.map(typeText).join(", ")}) -> ${typeText(te.result)}`;
    case "UnitType":
      return "()";
    case "Error":
      return "_";
  }
}

function signatureOf(def: DefInfo): string {
  const node = def.node!;
  const pub = node.pub !== null ? "pub " : "";
  const tps = node.typeParams.length > 0
    ? `[${node.typeParams.map((t) => t.text).join(", ")}]`
    : "";
  switch (node.kind) {
    case "FnDecl": {
      const params = node.params.map((p) => `${p.name.text}: ${typeText(p.type)}`).join(", ");
      const result = node.returnType === null ? "Unit" : typeText(node.returnType);
      return `${pub}fn ${node.name.text}${tps}(${params}) -> ${result}`;
    }
    case "RecordDecl": {
      const fields = node.fields.map((f) => `${f.name.text}: ${typeText(f.type)}`).join(", ");
      return `${pub}record ${node.name.text}${tps} ${fields === "" ? "{}" : `{ ${fields} }`}`;
    }
    case "EnumDecl": {
      const variants = node.variants.map((v) =>
        v.fields.length === 0 ? v.name.text : `${v.name.text}(${v.fields.map(typeText).join(", ")})`
      ).join(", ");
      return `${pub}enum ${node.name.text}${tps} ${variants === "" ? "{}" : `{ ${variants} }`}`;
    }
  }
}

function typeShape(t: Type): Json {
  switch (t.kind) {
    case "con":
      return { con: t.name, args: t.args.map(typeShape) };
    case "fn":
      return { fn: t.params.map(typeShape), result: typeShape(t.result) };
    case "param":
      // By position: renaming a type parameter is a source change, not a new shape.
      return { param: t.index };
    default:
      return { error: true };
  }
}

function shapeOf(def: DefInfo, signature: Signature): Json {
  const base = {
    key: def.key,
    kind: def.kind,
    name: def.name,
    exported: def.exported,
    typeParams: signature.typeParams.length,
  };
  switch (def.kind) {
    case "function":
      return {
        ...base,
        // Parameter names are not part of a shape: calls are positional, so
        // renaming a parameter changes the source alone.
        params: signature.params.map((p) => typeShape(p.type)),
        result: typeShape(signature.result),
      };
    case "record":
      return {
        ...base,
        fields: signature.fields.map((f) => ({ name: f.name, type: typeShape(f.type) })),
      };
    case "enum":
      return {
        ...base,
        variants: signature.variants.map((v) => ({
          name: v.name,
          payload: v.payload.map(typeShape),
        })),
      };
  }
}

type LinkMap = Map<string, Occurrence[]>;

function addTo(map: LinkMap, key: string, occurrence: Occurrence): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [occurrence]);
  else list.push(occurrence);
}

function byPlace(a: Occurrence, b: Occurrence): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.span.start - b.span.start;
}

/** No links: shared, as most relations of most definitions are empty. */
const NO_LINKS: readonly Link[] = Object.freeze([]);

function links(map: LinkMap | undefined): readonly Link[] {
  if (map === undefined) return NO_LINKS;
  const out: Link[] = [];
  const repeats = (o: Occurrence, i: number, all: readonly Occurrence[]) =>
    i > 0 && o.file === all[i - 1].file && o.span.start === all[i - 1].span.start;
  for (const [key, occurrences] of map) {
    occurrences.sort(byPlace);
    out.push({
      key,
      occurrences: occurrences.some(repeats)
        ? occurrences.filter((o, i, all) => !repeats(o, i, all))
        : occurrences,
    });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Builds the model from checked modules and the compilation's sorted diagnostics. */
export function buildModel(
  modules: readonly ModuleInfo[],
  checked: CheckResult,
  diagnostics: readonly Diagnostic[],
): SemanticModel {
  return assembleModel(modules.map((m) => modelPart(m, checked)), diagnostics, null);
}

/**
 * What one module contributes to the model, from its own checking alone:
 * its definitions without the relations other modules make to them
 * (`usedBy`, `calledBy`) or their diagnostics, its references out, its
 * file's index and its tests. An incremental engine keeps it while the
 * module's results are reused.
 */
export interface ModelPart {
  readonly module: string;
  readonly file: string;
  /** Sorted by key; `usedBy`, `calledBy` and `diagnostics` empty. */
  readonly definitions: readonly Definition[];
  /** Every reference its definitions make, in their order: the source of `usedBy` and `calledBy`. */
  readonly outgoing: readonly { readonly from: string; readonly ref: Ref }[];
  /** Sorted by offset. */
  readonly index: readonly IndexEntry[];
  /** In source order. */
  readonly tests: readonly TestBody[];
  /** Its definitions' declarations (doc comments included), by start: where a diagnostic belongs. */
  readonly owners: readonly { readonly key: string; readonly span: Span }[];
}

/**
 * The index entries of a module's imported names (`{Shape}`), as its
 * imports are linked now. An incremental engine takes them when it links
 * the module: it may link a kept module again, in place, for a later
 * analysis, before this one's model is first read.
 */
export function importIndex(m: ModuleInfo): IndexEntry[] {
  const index: IndexEntry[] = [];
  for (const info of m.imports) {
    for (const name of info.names) {
      if (name.def === null) continue;
      index.push({ start: name.ref.start, end: name.ref.end, key: name.def.key, role: "import" });
    }
  }
  return index;
}

/** The part of one checked module; `imports` as {@link importIndex} found them. */
export function modelPart(
  m: ModuleInfo,
  checked: CheckResult,
  imports: readonly IndexEntry[] = importIndex(m),
): ModelPart {
  const { bodies, signatures, references } = checked;
  // A duplicate (N0204) is a definition with a place and its own key; names never refer to it.
  const defs = [...m.defs.values(), ...m.duplicates].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0
  );
  const index: IndexEntry[] = [];
  const outgoing: { from: string; ref: Ref }[] = [];
  const definitions: Definition[] = [];
  for (const def of defs) {
    const node = def.node!;
    index.push({ start: node.name.start, end: node.name.end, key: def.key, role: "declaration" });
    const refs = references.get(def)!;
    // Made for a relation the definition has: most have one or two of three.
    let uses: LinkMap | undefined;
    let types: LinkMap | undefined;
    let calls: LinkMap | undefined;
    for (const ref of refs.refs) {
      outgoing.push({ from: def.key, ref });
      const forward = ref.role === "call"
        ? calls ??= new Map()
        : ref.role === "use"
        ? uses ??= new Map()
        : types ??= new Map();
      addTo(forward, ref.key, { file: ref.file, span: ref.span });
      index.push({ start: ref.span.start, end: ref.span.end, key: ref.key, role: ref.role });
    }
    const body = bodies.get(def);
    definitions.push({
      key: def.key,
      kind: def.kind,
      name: def.name,
      module: m.name,
      exported: def.exported,
      file: m.file,
      span: fullSpan(def),
      nameSpan: { start: node.name.start, end: node.name.end },
      signature: signatureOf(def),
      doc: node.doc !== null ? node.doc.text : null,
      uses: links(uses),
      types: links(types),
      usedBy: [],
      calls: links(calls),
      calledBy: [],
      bindings: body === undefined ? typeParamBindings(def, refs) : body.bindings,
      scopes: body === undefined ? [{ id: 0, parent: null, span: fullSpan(def) }] : body.scopes,
      outerNames: [
        ...(body === undefined ? [] : body.outerNames),
        ...refs.typeNames.map((n) => ({ ...n, scope: 0, namespace: "type" as const })),
      ],
      shape: shapeOf(def, signatures.get(def)!),
      diagnostics: [],
    });
  }
  // A test's references are names in its file like any other (a rename
  // edits them), but the test is no definition: no link points to or from it.
  const tests: TestBody[] = [];
  for (const t of m.tests) {
    for (const ref of references.get(t.def)!.refs) {
      index.push({ start: ref.span.start, end: ref.span.end, key: ref.key, role: ref.role });
    }
    const body = bodies.get(t.def);
    const node = t.node;
    tests.push({
      key: t.key,
      name: t.name,
      module: m.name,
      file: m.file,
      span: { start: node.start, end: node.end },
      nameSpan: { start: node.name.start, end: node.name.end },
      bindings: body?.bindings ?? [],
      scopes: body?.scopes ?? [],
      outerNames: body?.outerNames ?? [],
    });
  }
  index.push(...imports);
  index.sort((a, b) => a.start - b.start);
  const owners = defs.map((def) => ({ key: def.key, span: fullSpan(def) }))
    .sort((a, b) => a.span.start - b.span.start);
  return { module: m.name, file: m.file, definitions, outgoing, index, tests, owners };
}

/** The reverse relations of one definition, as a model holds them. */
export interface Reverse {
  readonly usedBy: readonly Link[];
  readonly calledBy: readonly Link[];
}

/**
 * The model from every module's part: the reverse relations computed from
 * the parts' references, or for the keys `reverse` answers taken from it
 * (an engine's patched relations), and each diagnostic given to the
 * definition whose declaration holds its primary place. `reuse` may answer
 * a definition as an earlier model had it, when nothing of it changed.
 */
export function assembleModel(
  parts: readonly ModelPart[],
  diagnostics: readonly Diagnostic[],
  reverse: ((key: string) => Reverse) | null,
  reuse: (def: Definition, owned: readonly Diagnostic[]) => Definition | null = () => null,
): SemanticModel {
  const usedBy = new Map<string, LinkMap>();
  const calledBy = new Map<string, LinkMap>();
  if (reverse === null) {
    for (const part of parts) {
      for (const { from, ref } of part.outgoing) {
        const inverse = ref.role === "call" ? calledBy : usedBy;
        let inner = inverse.get(ref.key);
        if (inner === undefined) inverse.set(ref.key, inner = new Map());
        addTo(inner, from, { file: ref.file, span: ref.span });
      }
    }
  }
  const owned = ownedDiagnostics(parts, diagnostics);
  const definitions: Definition[] = [];
  const index: Record<string, IndexEntry[]> = {};
  const tests: TestBody[] = [];
  for (const part of parts) {
    for (const def of part.definitions) {
      const mine = owned.get(def.key);
      const same = reuse(def, mine ?? []);
      if (same !== null) {
        definitions.push(same);
        continue;
      }
      const back = reverse === null
        ? { usedBy: links(usedBy.get(def.key)), calledBy: links(calledBy.get(def.key)) }
        : reverse(def.key);
      if (mine === undefined && back.usedBy.length === 0 && back.calledBy.length === 0) {
        definitions.push(def);
      } else {
        definitions.push({
          ...def,
          usedBy: back.usedBy,
          calledBy: back.calledBy,
          diagnostics: mine ?? [],
        });
      }
    }
    if (part.index.length > 0) index[part.file] = part.index as IndexEntry[];
    tests.push(...part.tests);
  }
  definitions.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  tests.sort((
    a,
    b,
  ) => (a.module < b.module ? -1 : a.module > b.module ? 1 : a.span.start - b.span.start));
  return { definitions, tests, index: sortedByFile(index) };
}

/** The index with its files in path order, however the parts came. */
function sortedByFile(index: Record<string, IndexEntry[]>): Record<string, IndexEntry[]> {
  const sorted: Record<string, IndexEntry[]> = {};
  for (const file of Object.keys(index).sort()) sorted[file] = index[file];
  return sorted;
}

/** Diagnostics by owner: the definition whose declaration holds the primary place. */
function ownedDiagnostics(
  parts: readonly ModelPart[],
  diagnostics: readonly Diagnostic[],
): Map<string, Diagnostic[]> {
  const owned = new Map<string, Diagnostic[]>();
  if (diagnostics.length === 0) return owned;
  const byFile = new Map<string, ModelPart>();
  for (const part of parts) byFile.set(part.file, part);
  for (const d of diagnostics) {
    if (d.file === null || d.span === null) continue;
    const owner = ownerOf(byFile.get(d.file)?.owners, d.span.start);
    if (owner === null) continue;
    const list = owned.get(owner);
    if (list === undefined) owned.set(owner, [d]);
    else list.push(d);
  }
  return owned;
}

/** The links of a reverse relation: one per definition, occurrences sorted, keys sorted. */
export function reverseLinks(
  map: ReadonlyMap<string, Occurrence[]> | undefined,
): readonly Link[] {
  return links(map as LinkMap | undefined);
}

function typeParamBindings(def: DefInfo, refs: DefReferences): Binding[] {
  return def.node!.typeParams.map((t) => ({
    name: t.text,
    kind: "type_parameter" as const,
    declSpan: { start: t.start, end: t.end },
    scope: 0,
    references: refs.typeParamRefs.filter((r) => r.name === t.text).map((r) => ({
      span: r.span,
      scope: 0,
    })),
  }));
}

/** The declaration's span including its doc comment. */
export function fullSpan(def: DefInfo): Span {
  const node = def.node!;
  const start = node.doc !== null ? Math.min(node.doc.start, node.start) : node.start;
  return { start, end: node.end };
}

function ownerOf(
  owners: readonly { readonly key: string; readonly span: Span }[] | undefined,
  offset: number,
): string | null {
  if (owners === undefined) return null;
  let lo = 0;
  let hi = owners.length - 1;
  let found: { readonly key: string; readonly span: Span } | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (owners[mid].span.start <= offset) {
      found = owners[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found !== null && offset < found.span.end ? found.key : null;
}
