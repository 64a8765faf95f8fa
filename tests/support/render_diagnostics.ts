/**
 * Diagnostics (`nazm.diagnostic/2`, as the CLI and the server serialize
 * them) rendered as annotated source for the golden files: each under the
 * line where its primary place starts, its labels under theirs, its help and
 * every fix with exact edits and the changed lines after applying it.
 * Everything the serialized form holds is shown or checked here: places
 * agree with the text, `expected` is the text an edit replaces, the docs
 * section is the code's, and the list is in the compiler's published order.
 *
 * @module
 */
import { docsSectionOf } from "../../src/base/mod.ts";
import type { DiagnosticJson } from "../../src/semantics/mod.ts";
import {
  type AfterLine,
  annotate,
  type Mark,
  type Place,
  quoted,
  SourceView,
} from "./annotated.ts";

/** A file a case holds: shown with its marks. Diagnostics in other files are listed by place. */
export interface CaseFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** The order every diagnostic list is published in: by file (program-level last), offset, code. */
function compareDiagnostics(a: DiagnosticJson, b: DiagnosticJson): number {
  const fa = a.place?.file ?? null;
  const fb = b.place?.file ?? null;
  if (fa !== fb) return fa === null ? 1 : fb === null ? -1 : fa < fb ? -1 : 1;
  const oa = a.place?.start.offset ?? 0;
  const ob = b.place?.start.offset ?? 0;
  if (oa !== ob) return oa - ob;
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

function placeText(place: Place, view: SourceView | undefined, from: string | null): string {
  const file = place.file === from ? "" : `${place.file}:`;
  const at = (p: Place["start"]) => `${p.line}:${p.column}`;
  // Outside a shown file, nothing checks the end against the start, nor offsets against
  // lines: print them all.
  if (view === undefined) {
    return `${file}${at(place.start)}-${
      at(place.end)
    } (bytes ${place.start.offset}-${place.end.offset})`;
  }
  return place.start.offset === place.end.offset
    ? `${file}${at(place.start)}`
    : `${file}${at(place.start)}-${at(place.end)}`;
}

function editText(
  edit: DiagnosticJson["fixes"][number]["edits"][number],
  view: SourceView | undefined,
  from: string | null,
): string {
  const where = placeText(edit.place, view, from);
  if (edit.expected === "" && edit.replacement === "") return `empty edit at ${where}`;
  if (edit.expected === "") return `insert ${quoted(edit.replacement)} at ${where}`;
  if (edit.replacement === "") return `delete ${quoted(edit.expected)} at ${where}`;
  return `replace ${quoted(edit.expected)} at ${where} with ${quoted(edit.replacement)}`;
}

/** The lines a fix's edits produce in one file, numbered as in the changed file. */
function afterLines(
  view: SourceView,
  edits: readonly { readonly place: Place; readonly replacement: string }[],
): AfterLine[] {
  const sorted = [...edits].sort((a, b) => a.place.start.offset - b.place.start.offset);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const touched: [number, number][] = [];
  let at = 0;
  let length = 0;
  for (const edit of sorted) {
    if (edit.place.start.offset < at) throw new Error(`${view.path}: a fix's edits overlap`);
    const kept = view.bytes.subarray(at, edit.place.start.offset);
    const inserted = encoder.encode(edit.replacement);
    parts.push(kept, inserted);
    touched.push([length + kept.length, length + kept.length + inserted.length]);
    length += kept.length + inserted.length;
    at = edit.place.end.offset;
  }
  parts.push(view.bytes.subarray(at));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  const after = new SourceView(view.path, bytes);
  const lines = new Set<number>();
  for (const [start, end] of touched) {
    for (let l = after.position(start).line; l <= after.position(end).line; l++) lines.add(l);
  }
  return [...lines].sort((a, b) => a - b).map((line) => ({ line, text: after.lineText(line) }));
}

/** A fix as notes: its heading, each edit exactly, and the lines it changes in each shown file. */
function fixNotes(
  fix: DiagnosticJson["fixes"][number],
  views: ReadonlyMap<string, SourceView>,
  from: string | null,
  code: string,
): (string | AfterLine)[] {
  const { kind, ...detail } = fix.precondition;
  const precondition = kind === "none" && Object.keys(detail).length === 0
    ? ""
    : `, ${kind}${Object.values(detail).map((v) => ` ${JSON.stringify(v)}`).join("")}`;
  const notes: (string | AfterLine)[] = [`fix [${fix.applicability}${precondition}] ${fix.title}`];
  const byFile = new Map<string, typeof fix.edits[number][]>();
  for (const edit of fix.edits) {
    const view = views.get(edit.place.file);
    if (view !== undefined) {
      view.checkPlace(edit.place);
      const replaced = view.text(edit.place.start.offset, edit.place.end.offset);
      if (replaced !== edit.expected) {
        throw new Error(
          `${code}: an edit expects ${quoted(edit.expected)}, the text is ${quoted(replaced)}`,
        );
      }
    }
    notes.push(`  ${editText(edit, view, from)}`);
    byFile.set(edit.place.file, [...(byFile.get(edit.place.file) ?? []), edit]);
  }
  for (const [file, edits] of byFile) {
    const view = views.get(file);
    if (view === undefined) continue;
    if (file !== from) notes.push(`  after, in ${file}:`);
    notes.push(...afterLines(view, edits));
  }
  return notes;
}

/** A note where no gutter is: outside a shown file. */
function plainNote(note: string | AfterLine): string {
  return typeof note === "string" ? `  = ${note}` : `  ${note.line} > ${note.text}`;
}

/** ` (2 errors, 1 warning)`, or nothing for none. */
function counted(list: readonly DiagnosticJson[]): string {
  const parts = ["error", "warning"].map((severity) => {
    const n = list.filter((d) => d.severity === severity).length;
    return n === 0 ? "" : `${n} ${severity}${n === 1 ? "" : "s"}`;
  }).filter((part) => part !== "");
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

/**
 * The annotated rendering of `diagnostics` over the case's `files` (shown
 * in that order). Throws when a place disagrees with the text, an edit's
 * `expected` is not the text it replaces, or the list is out of order.
 */
export function renderDiagnostics(
  diagnostics: readonly DiagnosticJson[],
  files: readonly CaseFile[],
): string {
  const views = new Map(files.map((f) => [f.path, new SourceView(f.path, f.bytes)]));
  const check = (place: Place) => views.get(place.file)?.checkPlace(place);
  for (let i = 1; i < diagnostics.length; i++) {
    if (compareDiagnostics(diagnostics[i - 1], diagnostics[i]) > 0) {
      throw new Error(`diagnostic ${i + 1} (${diagnostics[i].code}) is listed out of order`);
    }
  }
  const marks = new Map<string, Mark[]>();
  const unshown = new Map<string, string[]>();
  const program: string[] = [];
  const add = (place: Place, mark: Omit<Mark, "start" | "end">) => {
    const view = views.get(place.file);
    if (view === undefined) {
      const lines = unshown.get(place.file) ?? [];
      lines.push(`${placeText(place, undefined, place.file)} ${mark.underline} ${mark.text}`);
      lines.push(...(mark.notes ?? []).map(plainNote));
      unshown.set(place.file, lines);
    } else {
      const list = marks.get(place.file) ?? [];
      list.push({ ...mark, start: place.start.offset, end: place.end.offset });
      marks.set(place.file, list);
    }
  };
  for (const d of diagnostics) {
    if (d.schema !== "nazm.diagnostic/2") throw new Error(`schema ${d.schema}`);
    // Not drawn (it is the code's, the same on every diagnostic of a code): checked instead.
    if (d.docs_section !== docsSectionOf(d.code)) {
      throw new Error(`${d.code}'s docs section is ${d.docs_section}`);
    }
    const from = d.place?.file ?? null;
    const notes: (string | AfterLine)[] = [];
    if (d.help !== null) notes.push(`help: ${d.help}`);
    for (const fix of d.fixes) notes.push(...fixNotes(fix, views, from, d.code));
    const text = `${d.severity} ${d.code}: ${d.message}`;
    if (d.place === null) {
      program.push(text, ...notes.map(plainNote));
    } else {
      check(d.place);
      add(d.place, { underline: "^", text, notes });
    }
    d.labels.forEach((label, i) => {
      check(label.place);
      const which = d.labels.length === 1 ? "label" : `label ${i + 1}/${d.labels.length}`;
      const owner = d.place === null
        ? "(program-level)"
        : `at ${placeText(d.place, views.get(d.place.file), label.place.file)}`;
      add(label.place, {
        underline: "-",
        text: `${which} of ${d.code} ${owner}: ${label.message}`,
      });
    });
  }
  const out: string[] = [];
  for (const view of views.values()) {
    const own = diagnostics.filter((d) => d.place?.file === view.path);
    // Under one line, labels before primaries: a primary's notes end with the fixed line, and a
    // label after them would read as marking that line.
    const list = (marks.get(view.path) ?? []).map((mark, i) => ({
      mark,
      i,
      line: view.position(mark.start).line,
    }))
      .sort((a, b) =>
        a.line - b.line ||
        (a.mark.underline === "-" ? 0 : 1) - (b.mark.underline === "-" ? 0 : 1) ||
        a.i - b.i
      ).map((x) => x.mark);
    out.push(`==== ${view.path}${counted(own)} ====`, ...annotate(view, list));
  }
  for (const file of [...unshown.keys()].sort()) {
    const own = diagnostics.filter((d) => d.place?.file === file);
    out.push(`==== ${file}${counted(own)}, not shown ====`, ...unshown.get(file)!);
  }
  if (program.length > 0) {
    out.push(
      `==== program-level${counted(diagnostics.filter((d) => d.place === null))} ====`,
      ...program,
    );
  }
  return out.join("\n") + "\n";
}
