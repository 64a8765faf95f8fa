/**
 * BLAKE3 digests and canonical JSON: the one definition of both, used by
 * every fact that publishes a digest or a state.
 *
 * @module
 */
// The package's ES module, not its "main" (a UMD script Deno loads as
// CommonJS, which cost every isolate that hashes some 25 ms more to load).
// @ts-types="hash-wasm/dist/lib/index.d.ts"
import { createBLAKE3 } from "hash-wasm/dist/index.esm.js";

// One hasher, created once: a new hasher per call is about 9x slower
// (ARCHITECTURE.md, measured), and reuse keeps hashing synchronous.
const hasher = await createBLAKE3();
const encoder = new TextEncoder();

/** Lowercase hex BLAKE3-256 of bytes, or of a string's UTF-8 encoding. */
export function blake3(data: Uint8Array | string): string {
  hasher.init();
  hasher.update(typeof data === "string" ? encoder.encode(data) : data);
  return hasher.digest("hex");
}

/**
 * BLAKE3 over a sequence of byte strings, each framed by its length so that
 * no two different sequences hash alike (`["ab", "c"]` differs from `["a", "bc"]`):
 * the hash of every part's length (8 bytes, big-endian) followed by its bytes.
 */
export function blake3Framed(parts: readonly (Uint8Array | string)[]): string {
  hasher.init();
  // The frames are gathered in one buffer and handed over 64 KiB at a time:
  // the engine frames thousands of short strings at each analysis, and each
  // call into the hasher costs more than copying the bytes (measured: the
  // cold analysis of 100,000 lines spent 94 ms here with a call per part).
  let used = 0;
  const flush = () => {
    hasher.update(frames.subarray(0, used));
    used = 0;
  };
  for (const part of parts) {
    // At most three bytes for each UTF-16 unit.
    const bound = typeof part === "string" ? part.length * 3 : part.length;
    if (used + 8 + bound > frames.length) flush();
    if (8 + bound > frames.length) {
      const bytes = typeof part === "string" ? encoder.encode(part) : part;
      writeLength(0, bytes.length);
      hasher.update(frames.subarray(0, 8));
      hasher.update(bytes);
      continue;
    }
    const at = used;
    used += 8;
    if (typeof part === "string") {
      used += encodeUtf8(part, used);
    } else {
      frames.set(part, used);
      used += part.length;
    }
    writeLength(at, used - at - 8);
  }
  if (used > 0) flush();
  return hasher.digest("hex");
}

// Reused by every call: the hasher copies what it is given at once.
const frames = new Uint8Array(64 * 1024);
const framesView = new DataView(frames.buffer);

/**
 * Writes a string's UTF-8 at `at` in the frames, which have room for it, and
 * returns its length. Most parts are short ASCII names: copied unit by unit,
 * they cost no view and no call into the encoder.
 */
function encodeUtf8(text: string, at: number): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) return encoder.encodeInto(text, frames.subarray(at)).written;
    frames[at + i] = unit;
  }
  return text.length;
}

/** A length as 8 bytes, big-endian, at `at` in the frames. */
function writeLength(at: number, length: number): void {
  framesView.setUint32(at, Math.floor(length / 2 ** 32), false);
  framesView.setUint32(at + 4, length >>> 0, false);
}

/** True for a lowercase hex BLAKE3-256 digest. */
export function isDigest(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}

/** A JSON value as canonical JSON accepts it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace,
 * strings escaped as JSON.stringify escapes them, numbers only as integers
 * (anything else is a bug: no published fact holds a fraction), no
 * undefined. Its UTF-8 bytes are what a digest of a JSON value covers.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  writeCanonical(value, (text) => out.push(text));
  return out.join("");
}

/**
 * BLAKE3 of a value's canonical JSON, `blake3(canonicalJson(value))`,
 * hashed as it is written in 64 KiB pieces: a 64 MiB baseline is digested
 * without its text, its bytes and millions of pieces held at once.
 */
export function blake3Canonical(value: unknown): string {
  hasher.init();
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    hasher.update(encoder.encode(pending.join("")));
    pending = [];
    size = 0;
  };
  writeCanonical(value, (text) => {
    pending.push(text);
    size += text.length;
    if (size >= 65_536) flush();
  });
  flush();
  return hasher.digest("hex");
}

/** One container being written: its items or sorted keys, and how far. */
type Open =
  | { readonly kind: "array"; readonly array: readonly unknown[]; next: number }
  | {
    readonly kind: "record";
    readonly record: Record<string, unknown>;
    readonly keys: string[];
    next: number;
  };

/** Writes a value's canonical JSON as pieces, without recursion (a value may be deep). */
function writeCanonical(value: unknown, emit: (text: string) => void): void {
  const stack: Open[] = [];
  const start = (v: unknown): void => {
    if (v === null) emit("null");
    else if (typeof v === "boolean") emit(v ? "true" : "false");
    else if (typeof v === "number") {
      if (!Number.isSafeInteger(v)) throw new Error(`canonical JSON holds integers only: ${v}`);
      emit(String(v));
    } else if (typeof v === "string") emit(JSON.stringify(v));
    else if (Array.isArray(v)) {
      emit("[");
      stack.push({ kind: "array", array: v, next: 0 });
    } else if (typeof v === "object") {
      const record = v as Record<string, unknown>;
      emit("{");
      stack.push({
        kind: "record",
        record,
        keys: Object.keys(record).filter((k) => record[k] !== undefined).sort(),
        next: 0,
      });
    } else {
      throw new Error(`canonical JSON cannot hold ${typeof v}`);
    }
  };
  start(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.kind === "array") {
      if (top.next === top.array.length) {
        stack.pop();
        emit("]");
        continue;
      }
      if (top.next > 0) emit(",");
      start(top.array[top.next++]);
    } else {
      if (top.next === top.keys.length) {
        stack.pop();
        emit("}");
        continue;
      }
      if (top.next > 0) emit(",");
      const key = top.keys[top.next++];
      emit(JSON.stringify(key));
      emit(":");
      start(top.record[key]);
    }
  }
}
