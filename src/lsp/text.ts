/**
 * Positions as an editor counts them: 0-based lines and UTF-16 code units
 * (the protocol's default encoding), over one file's UTF-8 bytes, which is
 * what every span of the compiler indexes.
 *
 * @module
 */
import type { Position, Range } from "vscode-languageserver/node";
import { LineIndex, type Span } from "../base/mod.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

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
  readonly #lines: LineIndex;

  constructor(bytes: Uint8Array, lines: LineIndex = new LineIndex(bytes)) {
    this.bytes = bytes;
    this.#lines = lines;
  }

  static of(text: string): TextMap {
    return new TextMap(encoder.encode(text));
  }

  get lineCount(): number {
    return this.#lines.lineStarts.length;
  }

  /** The editor position of a byte offset (clamped to the file). */
  position(offset: number): Position {
    const { line, offset: clamped } = this.#lines.position(offset);
    let character = 0;
    // UTF-16 units from the line's bytes: 1 per sequence, 2 for a 4-byte one.
    for (let i = this.#lines.lineStarts[line - 1]; i < clamped; i++) {
      const b = this.bytes[i];
      if ((b & 0xc0) === 0x80) continue;
      character += b >= 0xf0 ? 2 : 1;
    }
    return { line: line - 1, character };
  }

  range(span: Span): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }

  /**
   * The byte offset of an editor position. A line past the end is out of
   * range; a character past its line's end is the line's end (as the
   * protocol says); a character inside a surrogate pair is the pair's start.
   */
  offset(position: Position): number | OutOfRange {
    const { line, character } = position;
    if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) {
      return new OutOfRange(`position ${line}:${character} is not a position`);
    }
    const starts = this.#lines.lineStarts;
    if (line >= starts.length) {
      return new OutOfRange(
        `line ${line} is past the end of the document (${starts.length} lines)`,
      );
    }
    const start = starts[line];
    const end = line + 1 < starts.length ? starts[line + 1] - 1 : this.bytes.length;
    let units = 0;
    let i = start;
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
