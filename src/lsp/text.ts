/**
 * Positions as an editor counts them: 0-based lines and UTF-16 code units
 * (the protocol's default encoding), over one file's UTF-8 bytes, which is
 * what every span of the compiler indexes.
 *
 * @module
 */
import type { Position, Range } from "vscode-languageserver/node";
import type { Span } from "../base/mod.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Why a position was not in the document, in words a client can show. */
export class OutOfRange {
  constructor(readonly message: string) {}
}

/** Converts between byte offsets of one file and the editor's positions. */
export class TextMap {
  readonly bytes: Uint8Array;
  readonly #lineStarts: number[];

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    const starts = [0];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
    this.#lineStarts = starts;
  }

  static of(text: string): TextMap {
    return new TextMap(encoder.encode(text));
  }

  get lineCount(): number {
    return this.#lineStarts.length;
  }

  /** The editor position of a byte offset (clamped to the file). */
  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.bytes.length));
    const starts = this.#lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= clamped) lo = mid;
      else hi = mid - 1;
    }
    const start = starts[lo];
    let character = 0;
    // Count UTF-16 units from the line's bytes: 1 per sequence, 2 for a 4-byte one.
    for (let i = start; i < clamped; i++) {
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
   * range; a character past its line's end is the line's end (as the
   * protocol says); a character inside a surrogate pair is the pair's start.
   */
  offset(position: Position): number | OutOfRange {
    const { line, character } = position;
    if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) {
      return new OutOfRange(`position ${line}:${character} is not a position`);
    }
    if (line >= this.#lineStarts.length) {
      return new OutOfRange(
        `line ${line} is past the end of the document (${this.#lineStarts.length} lines)`,
      );
    }
    const start = this.#lineStarts[line];
    const end = line + 1 < this.#lineStarts.length
      ? this.#lineStarts[line + 1] - 1
      : this.bytes.length;
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
