/**
 * The semantic model of a compilation rendered as annotated source for the
 * golden files (tests/golden/README.md): every definition marked at its name
 * with its key, kind, export and declaration range, signature, doc and
 * diagnostics; every link occurrence marked where it is made with its
 * relation (`call`, `use`, `type`) and target key; every imported name with
 * the definition it brings in; every local binding with its kind and
 * references.
 *
 * What is not drawn is checked: the inverse relations (`used_by`,
 * `called_by`) and the name index are exactly what the drawn facts imply,
 * every list is in its published order, every occurrence lies inside its
 * definition and spells its target's name.
 *
 * @module
 */
import type { Compilation } from "../../src/semantics/mod.ts";
import { annotate, type Mark, quoted, SourceView } from "./annotated.ts";

/** A byte range of a file. */
export interface FileSpan {
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

/** One relation with the places it is made. */
export interface LinkFacts {
  readonly key: string;
  readonly at: readonly FileSpan[];
}

/** The model's facts, plain data: what the golden shows and checks. */
export interface ModelFacts {
  readonly definitions: readonly {
    readonly key: string;
    readonly kind: string;
    readonly exported: boolean;
    readonly name: FileSpan;
    readonly declaration: FileSpan;
    readonly signature: string;
    readonly doc: string | null;
    readonly uses: readonly LinkFacts[];
    readonly types: readonly LinkFacts[];
    readonly calls: readonly LinkFacts[];
    readonly usedBy: readonly LinkFacts[];
    readonly calledBy: readonly LinkFacts[];
    readonly diagnostics: readonly string[];
    readonly bindings: readonly {
      readonly name: string;
      readonly kind: string;
      readonly declaration: FileSpan;
      readonly references: readonly FileSpan[];
    }[];
  }[];
  readonly index: readonly (FileSpan & { readonly key: string; readonly role: string })[];
}

/** The facts of a compilation's model. */
export function modelFacts(c: Compilation): ModelFacts {
  const links = (
    list: readonly {
      key: string;
      occurrences: readonly { file: string; span: { start: number; end: number } }[];
    }[],
  ) =>
    list.map((l) => ({ key: l.key, at: l.occurrences.map((o) => ({ file: o.file, ...o.span })) }));
  return {
    definitions: c.model.definitions.map((d) => ({
      key: d.key,
      kind: d.kind,
      exported: d.exported,
      name: { file: d.file, ...d.nameSpan },
      declaration: { file: d.file, ...d.span },
      signature: d.signature,
      doc: d.doc,
      uses: links(d.uses),
      types: links(d.types),
      calls: links(d.calls),
      usedBy: links(d.usedBy),
      calledBy: links(d.calledBy),
      diagnostics: d.diagnostics.map((x) => x.code),
      // In source order: the list's own order is the checker's, not a published fact.
      bindings: [...d.bindings].sort((a, b) => a.declSpan.start - b.declSpan.start).map((b) => ({
        name: b.name,
        kind: b.kind,
        declaration: { file: d.file, ...b.declSpan },
        references: b.references.map((r) => ({ file: d.file, ...r.span })),
      })),
    })),
    index: Object.entries(c.model.index).flatMap(([file, entries]) =>
      entries.map((e) => ({ file, start: e.start, end: e.end, key: e.key, role: e.role }))
    ),
  };
}

const spanId = (s: FileSpan) => `${s.file}:${s.start}-${s.end}`;
const byPlace = (a: FileSpan, b: FileSpan) =>
  a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start;

function fail(message: string): never {
  throw new Error(`model: ${message}`);
}

function checkSorted<T>(list: readonly T[], compare: (a: T, b: T) => number, what: string): void {
  for (let i = 1; i < list.length; i++) {
    if (compare(list[i - 1], list[i]) >= 0) fail(`${what} out of order at ${i}`);
  }
}

/** `used_by` and `called_by` as the forward relations imply them. */
function inverse(facts: ModelFacts, sections: ("uses" | "types" | "calls")[]): Map<string, string> {
  const by = new Map<string, Map<string, FileSpan[]>>();
  for (const d of facts.definitions) {
    for (const section of sections) {
      for (const link of d[section]) {
        const inner = by.get(link.key) ?? new Map<string, FileSpan[]>();
        inner.set(d.key, [...(inner.get(d.key) ?? []), ...link.at]);
        by.set(link.key, inner);
      }
    }
  }
  const out = new Map<string, string>();
  for (const [target, inner] of by) {
    const list = [...inner].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, at]) => {
      const unique = [
        ...new Map([...at].sort(byPlace).map((s) => [`${s.file}:${s.start}`, s])).values(),
      ];
      return `${key}@${unique.map(spanId).join(",")}`;
    });
    out.set(target, list.join(" "));
  }
  return out;
}

/**
 * The annotated rendering of a model over its files (shown in the order
 * given). Throws when a fact the rendering does not draw disagrees with
 * the ones it does.
 */
export function renderModel(
  files: readonly { readonly path: string; readonly bytes: Uint8Array }[],
  facts: ModelFacts,
): string {
  const views = new Map(files.map((f) => [f.path, new SourceView(f.path, f.bytes)]));
  const view = (s: FileSpan) => views.get(s.file) ?? fail(`no file ${s.file}`);
  const text = (s: FileSpan) => {
    const v = view(s);
    v.position(s.end);
    if (s.end < s.start) fail(`${spanId(s)} ends before it starts`);
    return v.text(s.start, s.end);
  };
  const marks = new Map<string, Mark[]>();
  const mark = (s: FileSpan, label: string, notes: string[] = []) => {
    text(s);
    marks.set(s.file, [...(marks.get(s.file) ?? []), {
      start: s.start,
      end: s.end,
      underline: "^",
      text: label,
      notes,
    }]);
  };
  const names = new Map(facts.definitions.map((d) => [d.key, text(d.name)]));
  checkSorted(
    facts.definitions,
    (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    "definitions",
  );
  const drawnIndex: string[] = [];
  for (const d of facts.definitions) {
    const name = names.get(d.key)!;
    if (!new RegExp(`::${name}(#\\d+)?$`).test(d.key)) fail(`${d.key} is declared as ${name}`);
    const inside = (s: FileSpan) =>
      s.file === d.declaration.file && s.start >= d.declaration.start && s.end <= d.declaration.end;
    if (!inside(d.name)) fail(`${d.key}: its name is outside its declaration`);
    const declared = view(d.declaration).range(d.declaration.start, d.declaration.end);
    const notes = [`signature: ${d.signature}`];
    if (d.doc !== null) notes.push(`doc: ${quoted(d.doc)}`);
    if (d.diagnostics.length > 0) notes.push(`diagnostics: ${d.diagnostics.join(", ")}`);
    mark(
      d.name,
      `${d.kind} ${d.key}${d.exported ? ", exported" : ""}, declared ${declared}`,
      notes,
    );
    drawnIndex.push(`${spanId(d.name)} ${d.key} declaration`);
    for (
      const [section, role] of [["uses", "use"], ["types", "type"], ["calls", "call"]] as const
    ) {
      checkSorted(d[section], (a, b) => (a.key < b.key ? -1 : 1), `${d.key} ${section}`);
      for (const link of d[section]) {
        const target = names.get(link.key) ??
          fail(`${d.key} ${section} ${link.key}, no definition`);
        checkSorted(link.at, byPlace, `${d.key} ${section} ${link.key}`);
        for (const s of link.at) {
          if (!inside(s)) fail(`${d.key} ${section} ${link.key} at ${spanId(s)}, outside it`);
          if (text(s) !== target) {
            fail(`${d.key} ${section} ${link.key} at ${spanId(s)}: ${text(s)}`);
          }
          mark(s, `${role} ${link.key}`);
          drawnIndex.push(`${spanId(s)} ${link.key} ${role}`);
        }
      }
    }
    checkSorted(
      d.bindings,
      (a, b) => a.declaration.start - b.declaration.start,
      `${d.key} bindings`,
    );
    for (const b of d.bindings) {
      checkSorted(b.references, (a, b) => a.start - b.start, `${d.key} references to ${b.name}`);
      if (text(b.declaration) !== b.name) {
        fail(`${d.key}: binding ${b.name} at ${spanId(b.declaration)}`);
      }
      for (const r of b.references) {
        if (text(r) !== b.name) fail(`${d.key}: a reference to ${b.name} at ${spanId(r)}`);
      }
      const refs = b.references.length === 0
        ? "no references"
        : `references ${b.references.map((r) => view(r).at(r.start)).join(", ")}`;
      mark(b.declaration, `${b.kind} binding, ${refs}`);
    }
  }
  const usedBy = inverse(facts, ["uses", "types"]);
  const calledBy = inverse(facts, ["calls"]);
  for (const d of facts.definitions) {
    for (
      const [list, expected, what] of [[d.usedBy, usedBy, "used_by"], [
        d.calledBy,
        calledBy,
        "called_by",
      ]] as const
    ) {
      const got = list.map((l) => `${l.key}@${l.at.map(spanId).join(",")}`).join(" ");
      if (got !== (expected.get(d.key) ?? "")) {
        fail(`${d.key} ${what} is ${got}, the links say ${expected.get(d.key)}`);
      }
    }
  }
  const index: string[] = [];
  for (const e of facts.index) {
    if (e.role === "import") {
      const target = names.get(e.key) ?? fail(`import of ${e.key}, no definition`);
      if (text(e) !== target) fail(`import of ${e.key} at ${spanId(e)}: ${text(e)}`);
      mark(e, `import ${e.key}`);
    } else index.push(`${spanId(e)} ${e.key} ${e.role}`);
  }
  // Per file, by offset (files in any order, each once).
  const seen = new Set<string>();
  facts.index.forEach((e, i) => {
    const previous = facts.index[i - 1];
    if (previous?.file === e.file) {
      if (previous.start > e.start) fail(`the name index of ${e.file} is out of order`);
    } else if (seen.has(e.file)) fail(`the name index lists ${e.file} twice`);
    seen.add(e.file);
  });
  if (index.sort().join("\n") !== drawnIndex.sort().join("\n")) {
    fail("the name index is not the definitions' names and link occurrences");
  }
  const out: string[] = [];
  for (const v of views.values()) {
    const list = (marks.get(v.path) ?? []).sort((a, b) => a.start - b.start || a.end - b.end);
    out.push(`==== ${v.path} ====`, ...annotate(v, list));
  }
  return out.join("\n") + "\n";
}
