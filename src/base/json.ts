/**
 * What JSON.parse hides or cannot bear, found in one linear pass over the
 * raw bytes before anything parses them:
 *
 * - a key repeated in one object (JSON.parse keeps the last value silently,
 *   so a document with a duplicate would be compared as if it were another);
 * - nesting deeper than a bound (JSON.parse itself copes, but every
 *   recursive step after it — structured clone, a reviver, a validator —
 *   overflows the stack at a few thousand levels);
 * - more values than a bound (an 80 MiB line of `[{},{},…]` is 27 million
 *   objects, over a gigabyte once parsed);
 * - the exact source text of chosen values (a numeric id that a double
 *   cannot hold, as the client wrote it) and the span of a value to be cut
 *   out unparsed (a delta's baseline, parsed later by the worker).
 *
 * The scan never recurses and allocates a frame per open container only.
 *
 * @module
 */

/** What to look for. */
export interface ScanOptions {
  /** Nesting depth allowed (a scalar at the top is depth 0; `[1]` is depth 1). */
  readonly maxDepth?: number;
  /** JSON values allowed (each container, string, number and literal counts one). */
  readonly maxValues?: number;
  /**
   * Dotted paths of object members (`id`, `params.requestId`) whose value's
   * byte span to report; at most three keys deep.
   */
  readonly spans?: readonly string[];
  /**
   * Of those, the paths whose value is opaque: it is skipped (its span
   * reported), not counted, not checked for depth or repeated keys.
   */
  readonly opaque?: readonly string[];
  /**
   * How repeated keys are looked for: `track` remembers each object's keys
   * (the path of the first repeat is reported); `count` only counts every
   * key, for {@link countKeys} to compare with what JSON.parse kept (many
   * times faster on a large text, which is then scanned again only if the
   * counts differ). Default `track`.
   */
  readonly keys?: "track" | "count";
}

/** What the scan found. */
export interface ScanResult {
  /** Where a key is first repeated (`$["a"]["b"]`, arrays as `[]`), or null. */
  readonly duplicateKey: string | null;
  /** Where nesting first went past `maxDepth`, or null. */
  readonly tooDeep: string | null;
  /** True when there are more than `maxValues` values. */
  readonly tooManyValues: boolean;
  /** How many object keys there are (outside opaque values). */
  readonly keyCount: number;
  /** True when every byte is ASCII (so the text is UTF-8 without checking). */
  readonly ascii: boolean;
  /** The byte span `[start, end)` of each value found at a path of `spans`. */
  readonly spans: ReadonlyMap<string, readonly [number, number]>;
}

interface Frame {
  readonly isObject: boolean;
  readonly keys: Set<string> | null;
  /** The key of the member being read (objects). */
  key: string | null;
  /** The dotted path of this container, while it is shallow enough to be watched. */
  readonly dotted: string | null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

const decoder = new TextDecoder();

/** What skipping strings saw: whether the last one held an escape, whether any byte was over 0x7f. */
interface Seen {
  escaped: boolean;
  /** Only strings may hold a byte over 0x7f in JSON. */
  ascii: boolean;
}

/** The index just past the string starting at `at` (a quote). */
function skipStringAt(bytes: Uint8Array, at: number, seen: Seen): number {
  seen.escaped = false;
  const n = bytes.length;
  let j = at + 1;
  while (j < n) {
    const c = bytes[j];
    if (c === BACKSLASH) {
      seen.escaped = true;
      j += 2;
    } else if (c === QUOTE) return j + 1;
    else {
      if (c > 0x7f) seen.ascii = false;
      j++;
    }
  }
  return n;
}

/** The index just past the value starting at `at`, without looking inside it. */
function skipValueAt(bytes: Uint8Array, at: number, seen: Seen): number {
  const n = bytes.length;
  const c = bytes[at];
  if (c === QUOTE) return skipStringAt(bytes, at, seen);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    let j = at;
    while (
      j < n && !isSpace(bytes[j]) && bytes[j] !== COMMA && bytes[j] !== CLOSE_OBJECT &&
      bytes[j] !== CLOSE_ARRAY
    ) j++;
    return j;
  }
  let depth = 0;
  let j = at;
  while (j < n) {
    const d = bytes[j];
    if (d === QUOTE) {
      j = skipStringAt(bytes, j, seen);
      continue;
    }
    if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
    else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return n;
}

/** The path of the value being read, or with `key`, of that key of the innermost object. */
function pathAt(frames: readonly Frame[], key: string | null): string {
  let path = "$";
  frames.forEach((frame, at) => {
    const member = key !== null && at === frames.length - 1 ? key : frame.key;
    path += frame.isObject ? `[${JSON.stringify(member)}]` : "[]";
  });
  return path;
}

/** The dotted path of the value about to start, when watched paths may match. */
function dottedAt(frames: readonly Frame[]): string | null {
  if (frames.length === 0) return "";
  const top = frames[frames.length - 1];
  if (!top.isObject || top.dotted === null || top.key === null) return null;
  return top.dotted === "" ? top.key : `${top.dotted}.${top.key}`;
}

/**
 * Scans JSON text (UTF-8 bytes). Made for valid JSON; on anything else it
 * still ends, in linear time, with some answer (parse the text to know it is
 * JSON).
 */
export function scanJson(bytes: Uint8Array, options: ScanOptions = {}): ScanResult {
  const maxDepth = options.maxDepth ?? Infinity;
  const maxValues = options.maxValues ?? Infinity;
  const watched = new Set(options.spans ?? []);
  const opaque = new Set(options.opaque ?? []);
  const track = (options.keys ?? "track") === "track";
  let keyCount = 0;
  const spans = new Map<string, readonly [number, number]>();
  const frames: Frame[] = [];
  let duplicateKey: string | null = null;
  let tooDeep: string | null = null;
  let values = 0;
  const n = bytes.length;
  let i = 0;

  const seen: Seen = { escaped: false, ascii: true };
  const skipString = (at: number) => skipStringAt(bytes, at, seen);
  const skipValue = (at: number) => skipValueAt(bytes, at, seen);
  const pathOf = (key: string | null) => pathAt(frames, key);

  while (i < n) {
    const c = bytes[i];
    if (isSpace(c) || c === COMMA || c === COLON) {
      i++;
      continue;
    }
    if (c > 0x7f) seen.ascii = false;
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      frames.pop();
      // The member whose value just closed is done.
      const parent = frames[frames.length - 1];
      if (parent?.isObject) parent.key = null;
      i++;
      continue;
    }
    const top = frames[frames.length - 1];
    if (c === QUOTE && top?.isObject && top.key === null) {
      // A key: a string that an object is waiting for.
      const end = skipString(i);
      keyCount++;
      if (track || frames.length <= 3) {
        const key = seen.escaped
          ? JSON.parse(decoder.decode(bytes.subarray(i, end)))
          : decoder.decode(bytes.subarray(i + 1, end - 1));
        if (track && top.keys !== null && duplicateKey === null) {
          if (top.keys.has(key)) duplicateKey = pathOf(key);
          else top.keys.add(key);
        }
        top.key = key;
      } else {
        // Deeper keys matter only to repeats, which counting finds; a path
        // through them shows "…".
        top.key = "…";
      }
      i = end;
      continue;
    }
    // A value starts here.
    const dotted = dottedAt(frames);
    if (dotted !== null && watched.has(dotted)) {
      if (opaque.has(dotted)) {
        const end = skipValue(i);
        spans.set(dotted, [i, end]);
        if (top?.isObject) top.key = null;
        i = end;
        continue;
      }
      spans.set(dotted, [i, skipValue(i)]);
    }
    values++;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (frames.length + 1 > maxDepth) {
        // Nothing deeper is looked at: the answer is already a refusal.
        tooDeep = pathOf(null);
        break;
      }
      frames.push({
        isObject: c === OPEN_OBJECT,
        keys: c === OPEN_OBJECT && track && duplicateKey === null ? new Set() : null,
        key: null,
        dotted: dotted !== null && dotted.split(".").length < 3 ? dotted : null,
      });
      i++;
      continue;
    }
    // A scalar: a string or a literal.
    i = c === QUOTE ? skipString(i) : skipValue(i);
    if (top?.isObject) top.key = null;
    if (values > maxValues) break;
  }
  return {
    duplicateKey,
    tooDeep,
    tooManyValues: values > maxValues,
    keyCount,
    // Cut short by a refusal, the scan has not seen every byte.
    ascii: seen.ascii && i >= n,
    spans,
  };
}

/**
 * How many own keys the objects of a parsed JSON value hold, counted
 * without recursion. Fewer than the text's {@link ScanResult.keyCount}
 * means JSON.parse dropped a repeated key.
 */
export function countKeys(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else {
      for (const key in v) {
        count++;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return count;
}

/**
 * The path (`$.a["b"].c`, JSONPath-like) of the first key repeated within
 * one object of a JSON text, or null. The text must be valid JSON (parse it
 * first); the scan is linear and allocation-light, for texts of many MiB.
 */
export function findDuplicateKey(text: string): string | null {
  return scanJson(new TextEncoder().encode(text)).duplicateKey;
}
