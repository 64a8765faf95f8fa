/**
 * BLAKE3 digests and canonical JSON: the one definition of both, used by
 * every fact that publishes a digest or a state.
 *
 * @module
 */
import { createBLAKE3 } from "hash-wasm";

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
 * no two different sequences hash alike (`["ab", "c"]` differs from `["a", "bc"]`).
 */
export function blake3Framed(parts: readonly (Uint8Array | string)[]): string {
  hasher.init();
  for (const part of parts) {
    const bytes = typeof part === "string" ? utf8(part) : part;
    lengthView.setBigUint64(0, BigInt(bytes.length), false);
    hasher.update(length);
    hasher.update(bytes);
  }
  return hasher.digest("hex");
}

// Reused by every call: the hasher copies what it is given at once, and the
// engine frames a few thousand short strings at each edit.
const length = new Uint8Array(8);
const lengthView = new DataView(length.buffer);
const scratch = new Uint8Array(64 * 1024);

/** A string's UTF-8 bytes: a short one's in the scratch buffer, valid until the next call. */
function utf8(text: string): Uint8Array {
  // At most three bytes for each UTF-16 unit; a longer string gets its own.
  if (text.length * 3 > scratch.length) return encoder.encode(text);
  return scratch.subarray(0, encoder.encodeInto(text, scratch).written);
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
