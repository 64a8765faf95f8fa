/**
 * Positions as an editor counts them: 0-based lines and UTF-16 code units
 * (the protocol's default encoding), over one file's UTF-8 bytes, which is
 * what every span of the compiler indexes.
 *
 * The protocol's lines end at LF, CR LF or a lone CR; the language's at LF
 * alone (a lone CR is whitespace, specification §2.1). So a file with a lone
 * CR has lines of its own here, and its compiled {@link LineIndex} is not
 * used for positions.
 *
 * @module
 */
import type { Position, Range } from "vscode-languageserver/node";
import { lineAt, LineIndex, type Span } from "../base/mod.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const LF = 0x0a;
const CR = 0x0d;

/** Why a position was not in the document, in words a client can show. */
export class OutOfRange {
  constructor(readonly message: string) {}
}

/**
 * Converts between byte offsets of one file and the editor's positions, on
 * the file's {@link LineIndex} (a compiled file's own, or a buffer's).
 */
export class TextMap {
  readonly bytes: Uint8Array;
  /** The byte offset at which each of the protocol's lines starts. */
  readonly #starts: Uint32Array;

  constructor(bytes: Uint8Array, lines?: LineIndex) {
    this.bytes = bytes;
    this.#starts = hasLoneCr(bytes)
      ? protocolLineStarts(bytes)
      : (lines ?? new LineIndex(bytes)).lineStarts;
  }

  static of(text: string): TextMap {
    return new TextMap(encoder.encode(text));
  }

  get lineCount(): number {
    return this.#starts.length;
  }

  /** The byte offset of the end of a 0-based line's text (before its line break). */
  lineEnd(line: number): number {
    const starts = this.#starts;
    if (line + 1 >= starts.length) return this.bytes.length;
    const next = starts[line + 1];
    const crlf = this.bytes[next - 1] === LF && next - 2 >= starts[line] &&
      this.bytes[next - 2] === CR;
    return next - (crlf ? 2 : 1);
  }

  /** The editor position of a byte offset (clamped to the file). */
  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.bytes.length));
    const lo = lineAt(this.#starts, clamped);
    let character = 0;
    // UTF-16 units from the line's bytes: 1 per sequence, 2 for a 4-byte one.
    for (let i = this.#starts[lo]; i < clamped; i++) {
      const b = this.bytes[i];
      if ((b & 0xc0) === 0x80) continue;
      character += b >= 0xf0 ? 2 : 1;
    }
    return { line: lo, character };
  }

  range(span: Span): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }

  /**
   * The byte offset of an editor position. A line past the end is out of
   * range; a character past its line's end is the line's end, before its
   * line break (as the protocol says); a character inside a surrogate pair
   * is the pair's start.
   */
  offset(position: Position): number | OutOfRange {
    const { line, character } = position;
    if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) {
      return new OutOfRange(`position ${line}:${character} is not a position`);
    }
    const starts = this.#starts;
    if (line >= starts.length) {
      return new OutOfRange(
        `line ${line} is past the end of the document (${starts.length} lines)`,
      );
    }
    const end = this.lineEnd(line);
    let units = 0;
    let i = starts[line];
    while (i < end) {
      const b = this.bytes[i];
      const width = b >= 0xf0 ? 2 : 1;
      if (units + width > character) break;
      units += width;
      i++;
      while (i < end && (this.bytes[i] & 0xc0) === 0x80) i++;
    }
    return i;
  }

  text(span: Span): string {
    return decoder.decode(this.bytes.subarray(span.start, span.end));
  }
}

function hasLoneCr(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(CR); i >= 0; i = bytes.indexOf(CR, i + 1)) {
    if (bytes[i + 1] !== LF) return true;
  }
  return false;
}

/** Line starts after every LF, CR LF and lone CR. */
function protocolLineStarts(bytes: Uint8Array): Uint32Array {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === LF || (b === CR && bytes[i + 1] !== LF)) starts.push(i + 1);
  }
  return Uint32Array.from(starts);
}
