/**
 * Annotated source, the format of the golden files a reviewer reads
 * (tests/golden/README.md): a file's lines with a gutter, and under a line
 * the marks that start on it — an underline of the marked span and a text,
 * then notes and "after" lines.
 *
 * ```text
 *   6 |   let p = Point;
 *     |       ^ warning N0401: unused variable `p`
 *     = fix [automatic] rename to `_p`
 *     =   insert "_" at 6:7
 *   6 >   let _p = Point;
 * ```
 *
 * Columns count characters exactly as the compiler's line index does (a
 * UTF-8 lead byte starts a character, continuation bytes do not), computed
 * here independently of it, so that a wrong column in an answer shows as a
 * misplaced underline or fails {@link SourceView.checkPlace}. Underlines are
 * drawn by display width (string-width: two cells for a CJK character or an
 * emoji, none for a combining mark), so that they stand under their text
 * wherever a reviewer reads the file.
 *
 * @module
 */

/** A line shown after a change (a fix applied): its number in the changed file and its text. */
export interface AfterLine {
  readonly line: number;
  readonly text: string;
}

/** One mark under the line where `start` lies. */
export interface Mark {
  /** Byte offsets in the file. */
  readonly start: number;
  readonly end: number;
  /** `^` for a primary place, `-` for a secondary one. */
  readonly underline: "^" | "-";
  readonly text: string;
  /** Lines under the mark: a string is a note (`= …`), an {@link AfterLine} a changed line. */
  readonly notes?: readonly (string | AfterLine)[];
}

import stringWidth from "string-width";
import type { Place } from "../../src/base/mod.ts";

export type { Place };

const fatal = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** One character as shown: control characters become their visible symbols (U+2400…). */
function shown(bytes: Uint8Array): string {
  let text: string;
  try {
    text = fatal.decode(bytes);
  } catch {
    return "\uFFFD";
  }
  const code = text.codePointAt(0)!;
  if (text.length === 1 && code < 0x20 && code !== 0x09) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return text;
}

/** A file's bytes cut into lines and characters, with the one offset ↔ line/column mapping of the goldens. */
export class SourceView {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Byte offset of each line's start; a final newline starts one more (empty) line. */
  readonly lineStarts: readonly number[];

  constructor(path: string, bytes: Uint8Array | string) {
    this.path = path;
    this.bytes = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
    const starts = [0];
    this.bytes.forEach((b, i) => {
      if (b === 0x0a) starts.push(i + 1);
    });
    this.lineStarts = starts;
  }

  /** The number of lines, counting the empty line after a final newline. */
  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** End of a line's text (its newline excluded). */
  lineEnd(line: number): number {
    return line < this.lineCount ? this.lineStarts[line] - 1 : this.bytes.length;
  }

  /** The 1-based line and column of a byte offset. */
  position(offset: number): { line: number; column: number } {
    if (!(Number.isInteger(offset) && offset >= 0 && offset <= this.bytes.length)) {
      throw new Error(`${this.path}: offset ${offset} is outside the file (${this.bytes.length})`);
    }
    let line = 1;
    while (line < this.lineCount && this.lineStarts[line] <= offset) line++;
    let column = 1;
    for (let i = this.lineStarts[line - 1]; i < offset; i++) {
      if (!isContinuation(this.bytes[i])) column++;
    }
    return { line, column };
  }

  /** `line:column` of an offset. */
  at(offset: number): string {
    const p = this.position(offset);
    return `${p.line}:${p.column}`;
  }

  /** `l:c-l:c` of a range. */
  range(start: number, end: number): string {
    return `${this.at(start)}-${this.at(end)}`;
  }

  /** The text of a byte range. */
  text(start: number, end: number): string {
    return new TextDecoder().decode(this.bytes.subarray(start, end));
  }

  /** Fails unless a place's offsets lie in this file and agree with its lines and columns. */
  checkPlace(place: Place): void {
    if (place.file !== this.path) throw new Error(`place in ${place.file}, not ${this.path}`);
    for (const p of [place.start, place.end]) {
      const { line, column } = this.position(p.offset);
      if (line !== p.line || column !== p.column) {
        throw new Error(
          `${this.path}: offset ${p.offset} is ${line}:${column}, the answer says ${p.line}:${p.column}`,
        );
      }
    }
    if (place.end.offset < place.start.offset) {
      throw new Error(`${this.path}: a place ends before it starts`);
    }
  }

  /** A line's characters as shown, each with its byte offset. */
  characters(line: number): { offset: number; text: string }[] {
    const out: { offset: number; text: string }[] = [];
    const end = this.lineEnd(line);
    let i = this.lineStarts[line - 1];
    while (i < end) {
      let j = i + 1;
      while (j < end && isContinuation(this.bytes[j])) j++;
      out.push({ offset: i, text: shown(this.bytes.subarray(i, j)) });
      i = j;
    }
    return out;
  }

  /** A line as shown. */
  lineText(line: number): string {
    return this.characters(line).map((c) => c.text).join("");
  }
}

/**
 * The blanks that stand under `text`: as wide as it is displayed (a CJK
 * character or an emoji takes two cells, a combining mark none), a tab
 * staying a tab, so that underlines line up in a terminal or a diff view.
 */
function blanks(text: string): string {
  return text.split("\t").map((part) => " ".repeat(stringWidth(part))).join("\t");
}

function underline(view: SourceView, mark: Mark): { indent: string; line: string; text: string } {
  const { line } = view.position(mark.start);
  const chars = view.characters(line);
  const lineEnd = view.lineEnd(line);
  const before = chars.filter((c) => c.offset < mark.start).map((c) => c.text).join("");
  const under = chars.filter((c) =>
    c.offset >= mark.start && c.offset < Math.min(mark.end, lineEnd)
  )
    .map((c) => c.text).join("");
  const tags: string[] = [];
  if (mark.start === mark.end) {
    tags.push(mark.end === view.bytes.length ? "(empty, end of file)" : "(empty)");
  } else if (mark.end > lineEnd) tags.push(`(to ${view.at(mark.end)})`);
  return {
    indent: blanks(before),
    line: mark.underline.repeat(Math.max(1, blanks(under).replaceAll("\t", " ").length)),
    text: [...tags, mark.text].join(" "),
  };
}

/** Which lines {@link annotate} shows: all by default. */
export interface AnnotateOptions {
  readonly from?: number;
  readonly to?: number;
}

/**
 * A file's lines with the marks under the lines they start on (in the
 * order given). The empty line after a final newline is shown only when a
 * mark is on it; a file without a final newline says so.
 */
export function annotate(
  view: SourceView,
  marks: readonly Mark[],
  options: AnnotateOptions = {},
): string[] {
  const byLine = new Map<number, Mark[]>();
  for (const mark of marks) {
    if (mark.end < mark.start) throw new Error(`${view.path}: a mark ends before it starts`);
    const { line } = view.position(mark.start);
    view.position(mark.end);
    byLine.set(line, [...(byLine.get(line) ?? []), mark]);
  }
  const afterNumbers = marks.flatMap((m) => m.notes ?? []).map((n) =>
    typeof n === "string" ? 0 : n.line
  );
  const finalNewline = view.bytes.length > 0 && view.bytes[view.bytes.length - 1] === 0x0a;
  const last = options.to ??
    (finalNewline && !byLine.has(view.lineCount) ? view.lineCount - 1 : view.lineCount);
  const width = String(Math.max(last, ...afterNumbers)).length;
  const gutter = (left: string, sign: string, text: string) =>
    `${left.padStart(width)} ${sign}${text === "" ? "" : " " + text}`;
  const out: string[] = [];
  for (let line = options.from ?? 1; line <= last; line++) {
    out.push(gutter(String(line), "|", view.lineText(line)));
    for (const mark of byLine.get(line) ?? []) {
      const u = underline(view, mark);
      out.push(gutter("", "|", `${u.indent}${u.line} ${u.text}`));
      for (const note of mark.notes ?? []) {
        out.push(
          typeof note === "string"
            ? gutter("", "=", note)
            : gutter(String(note.line), ">", note.text),
        );
      }
    }
  }
  if (last === view.lineCount && !finalNewline && view.bytes.length > 0) {
    out.push(`${" ".repeat(width)} \\ no newline at end of file`);
  }
  return out;
}

/** `"text"` as a JSON string: quotes, escapes and newlines visible. */
export function quoted(text: string): string {
  return JSON.stringify(text);
}
