/**
 * Human-readable diagnostics in rustc's layout: a header with the code, the
 * place, the source line with the span underlined, labels, help, the
 * fixes on offer and the docs section that explains the code. Returns text;
 * printing is the caller's business.
 *
 * @module
 */
import { type Diagnostic, docsSectionOf, type Span } from "../base/mod.ts";
import type { FileLookup } from "./serialize.ts";

const decoder = new TextDecoder();

function lineText(bytes: Uint8Array, lineStarts: Uint32Array, line: number): string {
  const start = lineStarts[line - 1];
  const end = line < lineStarts.length ? lineStarts[line] - 1 : bytes.length;
  return decoder.decode(bytes.subarray(start, end)).replace(/\r$/, "");
}

function snippet(
  lookup: FileLookup,
  file: string,
  span: Span,
  mark: string,
  message: string,
  gutter: number,
): string[] {
  const source = lookup(file);
  const pad = " ".repeat(gutter);
  if (source === undefined) return [];
  const start = source.lineIndex.position(span.start);
  const end = source.lineIndex.position(span.end);
  const text = lineText(source.bytes, source.lineIndex.lineStarts, start.line);
  const width = end.line === start.line
    ? Math.max(1, end.column - start.column)
    : Math.max(1, [...text].length - start.column + 1);
  const underline = " ".repeat(start.column - 1) + mark.repeat(width) +
    (message === "" ? "" : ` ${message}`);
  return [
    `${String(start.line).padStart(gutter)} | ${text}`,
    `${pad} | ${underline}`,
  ];
}

/** One diagnostic, several lines, no trailing newline. */
export function renderDiagnostic(d: Diagnostic, lookup: FileLookup): string {
  const out = [`${d.severity}[${d.code}]: ${d.message}`];
  let gutter = 1;
  for (const l of d.labels) {
    const p = lookup(l.file)?.lineIndex.position(l.span.start);
    if (p !== undefined) gutter = Math.max(gutter, String(p.line).length);
  }
  if (d.file !== null && d.span !== null) {
    const source = lookup(d.file);
    const p = source?.lineIndex.position(d.span.start);
    if (p !== undefined) gutter = Math.max(gutter, String(p.line).length);
    const pad = " ".repeat(gutter);
    out.push(`${pad}--> ${d.file}:${p?.line ?? 1}:${p?.column ?? d.span.start + 1}`);
    out.push(`${pad} |`);
    out.push(...snippet(lookup, d.file, d.span, "^", "", gutter));
  }
  const pad = " ".repeat(gutter);
  for (const l of d.labels) {
    const p = lookup(l.file)?.lineIndex.position(l.span.start);
    out.push(`${pad}::: ${l.file}:${p?.line ?? 1}:${p?.column ?? 1}`);
    out.push(...snippet(lookup, l.file, l.span, "-", l.message, gutter));
  }
  if (d.help !== null) out.push(`${pad} = help: ${d.help}`);
  for (const f of d.fixes) {
    out.push(`${pad} = fix (${f.applicability.replace("_", " ")}): ${f.title}`);
  }
  const section = docsSectionOf(d.code);
  if (section !== null) out.push(`${pad} = docs: ${section}`);
  return out.join("\n");
}

/** The closing count line, e.g. `2 errors, 1 warning`. */
export function renderSummary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (diagnostics.length === 0) return "no errors, no warnings";
  const e = `${errors} error${errors === 1 ? "" : "s"}`;
  const w = `${warnings} warning${warnings === 1 ? "" : "s"}`;
  return `${e}, ${w}`;
}
