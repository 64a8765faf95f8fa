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
  const length = new Uint8Array(8);
  const view = new DataView(length.buffer);
  for (const part of parts) {
    const bytes = typeof part === "string" ? encoder.encode(part) : part;
    view.setBigUint64(0, BigInt(bytes.length), false);
    hasher.update(length);
    hasher.update(bytes);
  }
  return hasher.digest("hex");
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
  write(value, out);
  return out.join("");
}

function write(value: unknown, out: string[]): void {
  if (value === null) {
    out.push("null");
  } else if (typeof value === "boolean") {
    out.push(value ? "true" : "false");
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new Error(`canonical JSON holds integers only: ${value}`);
    }
    out.push(String(value));
  } else if (typeof value === "string") {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i > 0) out.push(",");
      write(item, out);
    });
    out.push("]");
  } else if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    out.push("{");
    keys.forEach((key, i) => {
      if (i > 0) out.push(",");
      out.push(JSON.stringify(key), ":");
      write(record[key], out);
    });
    out.push("}");
  } else {
    throw new Error(`canonical JSON cannot hold ${typeof value}`);
  }
}
