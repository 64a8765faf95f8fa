/**
 * Diagnostics and every answer that edits: code actions for the compiler's
 * fixes, rename, formatting. Plans come from the same planner as
 * `nazm.semantic_patch` (verified before they are returned, refused for the
 * same reasons); an edit goes back to the editor as a WorkspaceEdit and is
 * never written here.
 *
 * @module
 */
import {
  type CodeAction,
  CodeActionKind,
  type Diagnostic as LspDiagnostic,
  DiagnosticSeverity,
  DiagnosticTag,
  LSPErrorCodes,
  type Range,
  ResponseError,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver/node";
import type { Diagnostic, Fix } from "../base/mod.ts";
import { type Outcome, type Patch, semanticPatchOf } from "../facts/mod.ts";
import { format } from "../syntax/mod.ts";
import { namedAt } from "./lookup.ts";
import { TextMap } from "./text.ts";
import type { Analysis, Located, Workspace } from "./workspace.ts";

/** docs/diagnostics.md in this build; a code's section is its lower-case anchor. */
const DIAGNOSTICS_DOC = new URL("../../docs/diagnostics.md", import.meta.url).href;

/** Codes whose diagnostic marks code as unused, which editors grey out. */
const UNNECESSARY = new Set(["N0401", "N0402", "N0403"]);

/** The data a diagnostic carries for its code actions. */
interface DiagnosticData {
  readonly id: string | null;
}

function toLsp(
  d: Diagnostic,
  map: TextMap,
  uriOf: (file: string) => string,
  mapOf: (file: string) => TextMap | null,
  id: string | null,
): LspDiagnostic {
  const range = d.span === null
    ? { start: map.position(0), end: map.position(0) }
    : map.range(d.span);
  const related = d.labels.flatMap((label) => {
    const labelMap = mapOf(label.file);
    return labelMap === null ? [] : [{
      location: { uri: uriOf(label.file), range: labelMap.range(label.span) },
      message: label.message,
    }];
  });
  const out: LspDiagnostic = {
    range,
    severity: d.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    codeDescription: { href: `${DIAGNOSTICS_DOC}#${d.code.toLowerCase()}` },
    source: "nazm",
    message: d.help === null ? d.message : `${d.message}\nhelp: ${d.help}`,
    data: { id } satisfies DiagnosticData,
  };
  if (related.length > 0) out.relatedInformation = related;
  if (UNNECESSARY.has(d.code)) out.tags = [DiagnosticTag.Unnecessary];
  return out;
}

/** Every file's diagnostics by URI: each file the compilation read, a program-level one at the root. */
export function compilationDiagnostics(
  workspace: Workspace,
  analysis: Analysis,
): Map<string, LspDiagnostic[]> {
  const out = new Map<string, LspDiagnostic[]>();
  const compilation = analysis.compilation;
  for (const file of [...compilation.files, ...compilation.rejected]) {
    out.set(workspace.uriOf(file.path), []);
  }
  const uriOf = (file: string) => workspace.uriOf(file);
  const mapOf = (file: string) => analysis.textOf(file);
  for (const d of compilation.diagnostics) {
    const file = d.file ?? compilation.root;
    const map = analysis.textOf(file);
    if (map === null) continue;
    const uri = workspace.uriOf(file);
    const list = out.get(uri) ?? [];
    list.push(toLsp(d, map, uriOf, mapOf, analysis.ids.get(d) ?? null));
    out.set(uri, list);
  }
  return out;
}

/** An open buffer outside the compilation: its syntax diagnostics, or why it was not parsed. */
export function syntaxDiagnostics(located: Extract<Located, { kind: "syntax" }>): LspDiagnostic[] {
  const { map, parse } = located.syntax;
  if (parse === null) {
    return [{
      range: { start: map.position(0), end: map.position(0) },
      severity: DiagnosticSeverity.Warning,
      source: "nazm",
      message:
        `the buffer is ${map.bytes.length} bytes, over the compiler's limit of 8 MiB per file: it is not analysed`,
    }];
  }
  return parse.diagnostics.map((d) => toLsp(d, map, () => located.uri, () => null, null));
}

function overlaps(a: Range, b: Range): boolean {
  const before = (x: Range["start"], y: Range["start"]) =>
    x.line < y.line || (x.line === y.line && x.character < y.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** What a code action asks the planner on resolve. */
export interface FixData {
  readonly uri: string;
  readonly id: string;
  readonly fix: number;
  readonly state: string;
}

/**
 * One action per fix of each diagnostic in the range, preferred where the
 * compiler calls it automatic. With `resolve`, the edit is planned when the
 * client picks the action; otherwise it is planned now.
 */
export function codeActions(
  workspace: Workspace,
  located: Located,
  range: Range,
  resolve: boolean,
): CodeAction[] {
  const actions: CodeAction[] = [];
  if (located.kind === "syntax") {
    const parse = located.syntax.parse;
    if (parse === null) return [];
    for (const d of parse.diagnostics) {
      const lsp = toLsp(d, located.syntax.map, () => located.uri, () => null, null);
      if (!overlaps(lsp.range, range)) continue;
      d.fixes.forEach((fix) => {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [lsp],
          isPreferred: fix.applicability === "automatic",
          edit: syntaxFixEdit(located.uri, located.syntax.map, fix),
        });
      });
    }
    return actions;
  }
  const { analysis, path } = located;
  const map = analysis.textOf(path)!;
  const uriOf = (file: string) => workspace.uriOf(file);
  const mapOf = (file: string) => analysis.textOf(file);
  for (const d of analysis.compilation.diagnostics) {
    if ((d.file ?? analysis.compilation.root) !== path || d.fixes.length === 0) continue;
    const id = analysis.ids.get(d) ?? null;
    if (id === null) continue;
    const lsp = toLsp(d, map, uriOf, mapOf, id);
    if (!overlaps(lsp.range, range)) continue;
    d.fixes.forEach((fix, index) => {
      const data: FixData = { uri: workspace.uriOf(path), id, fix: index, state: analysis.state };
      const action: CodeAction = {
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [lsp],
        isPreferred: fix.applicability === "automatic",
        data,
      };
      if (!resolve) {
        const planned = resolveFix(workspace, analysis, data);
        if (planned instanceof ResponseError) action.disabled = { reason: planned.message };
        else action.edit = planned;
      }
      actions.push(action);
    });
  }
  return actions;
}

function syntaxFixEdit(uri: string, map: TextMap, fix: Fix): WorkspaceEdit {
  return {
    changes: {
      [uri]: fix.edits.map((e) => ({ range: map.range(e.span), newText: e.replacement })),
    },
  };
}

/** The fix's plan, as nazm.semantic_patch makes it, or its refusal. */
export function resolveFix(
  workspace: Workspace,
  analysis: Analysis,
  data: FixData,
): WorkspaceEdit | ResponseError {
  const outcome = semanticPatchOf(analysis.compilation, {
    operation: "fix",
    diagnostic: data.id,
    fix: data.fix,
    state: data.state,
  });
  return workspaceEdit(workspace, analysis, outcome);
}

function refusal(outcome: Extract<Outcome<unknown>, { kind: "refusal" }>): ResponseError {
  return new ResponseError(
    LSPErrorCodes.RequestFailed,
    `${outcome.value.reason}: ${outcome.value.message}`,
  );
}

function workspaceEdit(
  workspace: Workspace,
  analysis: Analysis,
  outcome: Outcome<Patch>,
): WorkspaceEdit | ResponseError {
  if (outcome.kind === "refusal") return refusal(outcome);
  const changes: Record<string, TextEdit[]> = {};
  for (const edit of outcome.value.edits) {
    const map = analysis.textOf(edit.file);
    if (map === null) {
      throw new Error(`a plan edits a file the compilation did not read: ${edit.file}`);
    }
    (changes[workspace.uriOf(edit.file)] ??= []).push({
      range: { start: map.position(edit.start.offset), end: map.position(edit.end.offset) },
      newText: edit.replacement,
    });
  }
  return { changes };
}

/** A 1-based line and code-point column, as the planner takes a position. */
function plannerPosition(analysis: Analysis, path: string, offset: number) {
  const position = analysis.file(path)!.lineIndex.position(offset);
  return { line: position.line, column: position.column };
}

/**
 * The range of the name a rename would change, or why no rename is made
 * there. The planner is asked for the rename to the name itself: every
 * refusal but "it is already named so" is the refusal of any rename there.
 */
export function prepareRename(
  analysis: Analysis,
  path: string,
  offset: number,
): Range | ResponseError {
  const named = namedAt(analysis, path, offset);
  const map = analysis.textOf(path)!;
  const outcome = semanticPatchOf(analysis.compilation, {
    operation: "rename",
    file: path,
    position: plannerPosition(analysis, path, offset),
    new_name: named === null
      ? ""
      : named.kind === "definition"
      ? named.def.name
      : named.binding.name,
  });
  if (outcome.kind === "refusal" && outcome.value.reason !== "invalid_name") {
    return refusal(outcome);
  }
  if (named === null) throw new Error("the planner renames what the index does not name");
  const span = nameSpanAt(analysis, path, offset, named);
  return map.range(span);
}

function nameSpanAt(
  analysis: Analysis,
  path: string,
  offset: number,
  named: NonNullable<ReturnType<typeof namedAt>>,
) {
  if (named.kind === "local") {
    const b = named.binding;
    const inside = (s: { start: number; end: number }) => s.start <= offset && offset <= s.end;
    return inside(b.declSpan) ? b.declSpan : b.references.find((r) => inside(r.span))!.span;
  }
  const entries = analysis.compilation.model.index[path] ?? [];
  const entry = entries.find((e) =>
    e.start <= offset && offset <= e.end && e.key === named.def.key
  );
  return entry ?? named.def.nameSpan;
}

export function rename(
  workspace: Workspace,
  analysis: Analysis,
  path: string,
  offset: number,
  newName: string,
): WorkspaceEdit | ResponseError {
  const outcome = semanticPatchOf(analysis.compilation, {
    operation: "rename",
    file: path,
    position: plannerPosition(analysis, path, offset),
    new_name: newName,
  });
  return workspaceEdit(workspace, analysis, outcome);
}

/** The whole document in its canonical layout, or why not (a syntax error). */
export function formatDocument(text: string): TextEdit[] | ResponseError {
  const map = TextMap.of(text);
  const result = format(map.bytes);
  if (!result.ok) {
    const d = result.diagnostic;
    const at = d.span === null ? map.position(0) : map.position(d.span.start);
    return new ResponseError(
      LSPErrorCodes.RequestFailed,
      `not formatted: syntax error ${d.code} at line ${at.line + 1}, column ${
        at.character + 1
      }: ${d.message}`,
    );
  }
  if (result.text === text) return [];
  return [{
    range: { start: { line: 0, character: 0 }, end: map.position(map.bytes.length) },
    newText: result.text,
  }];
}
