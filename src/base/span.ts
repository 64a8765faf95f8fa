/**
 * Half-open byte ranges and the one conversion from byte offsets to 1-based
 * line/column positions. Everything inside the compiler speaks byte offsets;
 * lines and columns exist only at output boundaries, through {@link LineIndex}.
 *
 * @module
 */

/** A half-open byte range `[start, end)` in one file's bytes. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A position at an output boundary: a byte offset with its 1-based line and column. */
export interface Position {
  readonly offset: number;
  readonly line: number;
  /** 1-based, counted in Unicode characters (code points), not bytes. */
  readonly column: number;
}

/** The one shape every answer uses for a range of a file. */
export interface Place {
  /** Path relative to the source root, with `/` separators. */
  readonly file: string;
  readonly start: Position;
  readonly end: Position;
}

/** Builds a span, asserting it is well-formed (a bug otherwise). */
export function span(start: number, end: number): Span {
  if (!(start >= 0 && end >= start)) throw new Error(`bad span [${start}, ${end})`);
  return { start, end };
}

/** The 0-based line of a byte offset, given each line's start (ascending, the first 0). */
export function lineAt(lineStarts: ArrayLike<number>, offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Maps byte offsets of one file to lines and columns. Columns count code
 * points: UTF-8 continuation bytes (0b10xxxxxx) are not characters.
 */
export class LineIndex {
  /** Byte offset at which each line starts; `lineStarts[0] === 0`. */
  readonly lineStarts: Uint32Array;
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    let count = 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) count++;
    const starts = new Uint32Array(count);
    let line = 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts[line++] = i + 1;
    this.lineStarts = starts;
  }

  /** The 1-based line and character column of a byte offset (clamped to the file). */
  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.#bytes.length));
    const lo = lineAt(this.lineStarts, clamped);
    let column = 1;
    for (let i = this.lineStarts[lo]; i < clamped; i++) {
      if ((this.#bytes[i] & 0xc0) !== 0x80) column++;
    }
    return { offset: clamped, line: lo + 1, column };
  }

  /**
   * The byte offset of a 1-based line and character column, or null when the
   * line does not exist or the column lies past the end of that line.
   */
  offset(line: number, column: number): number | null {
    if (!Number.isInteger(line) || !Number.isInteger(column) || line < 1 || column < 1) {
      return null;
    }
    if (line > this.lineStarts.length) return null;
    const lineEnd = line < this.lineStarts.length ? this.lineStarts[line] - 1 : this.#bytes.length;
    let offset = this.lineStarts[line - 1];
    for (let seen = 1; seen < column; seen++) {
      if (offset >= lineEnd) return null;
      offset++;
      while (offset < lineEnd && (this.#bytes[offset] & 0xc0) === 0x80) offset++;
    }
    return offset <= lineEnd ? offset : null;
  }

  /** The place of a span in the file named `file`. */
  place(file: string, range: Span): Place {
    return { file, start: this.position(range.start), end: this.position(range.end) };
  }
}
