import { Buffer } from "node:buffer";
import fc from "fast-check";
import { assertEquals, assertThrows } from "../support/assert.ts";
import {
  blake3,
  blake3Framed,
  canonicalJson,
  findDuplicateKey,
  LineIndex,
  VERSION,
} from "../../src/base/mod.ts";

const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("line index: lines and character columns, multi-byte characters counted once", () => {
  const index = new LineIndex(encode("ab\né x\n\nz"));
  assertEquals(index.position(0), { offset: 0, line: 1, column: 1 });
  assertEquals(index.position(2), { offset: 2, line: 1, column: 3 });
  assertEquals(index.position(3), { offset: 3, line: 2, column: 1 });
  // "é" is two bytes; the "x" after it is the third character of line 2.
  assertEquals(index.position(6), { offset: 6, line: 2, column: 3 });
  assertEquals(index.position(8), { offset: 8, line: 3, column: 1 });
  assertEquals(index.position(9), { offset: 9, line: 4, column: 1 });
  assertEquals(index.position(999), { offset: 10, line: 4, column: 2 });
});

Deno.test("line index: offset is the inverse of position, and refuses what is not in the file", () => {
  const bytes = encode("fn é() {}\n  x\n");
  const index = new LineIndex(bytes);
  for (let offset = 0; offset <= bytes.length; offset++) {
    if ((bytes[offset] & 0xc0) === 0x80) continue;
    const { line, column } = index.position(offset);
    assertEquals(index.offset(line, column), offset);
  }
  assertEquals(index.offset(0, 1), null);
  assertEquals(index.offset(2, 99), null);
  assertEquals(index.offset(9, 1), null);
  assertEquals(index.offset(1.5, 1), null);
});

Deno.test("blake3: known vector, and framing separates part boundaries", () => {
  assertEquals(blake3(""), "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
  assertEquals(blake3("abc"), blake3(encode("abc")));
  const a = blake3Framed(["ab", "c"]);
  const b = blake3Framed(["a", "bc"]);
  assertEquals(a === b, false);
});

Deno.test("blake3Framed: a string hashes as its UTF-8 bytes, short or long, one after another", () => {
  // Short strings go through a reused buffer, long ones (over 21,845 units) do not.
  const parts = ["héllo", "", "𝔑azm ✓", "x".repeat(30_000) + "é", "ab", "a"];
  assertEquals(blake3Framed(parts), blake3Framed(parts.map((part) => encode(part))));
  assertEquals(blake3Framed(["ab", "a"]) === blake3Framed(["a", "ab"]), false);
});

/** The framing blake3Framed promises, written out: each part's length (8 bytes, big-endian), then it. */
function framedBytes(parts: readonly (Uint8Array | string)[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const bytes = typeof part === "string" ? encode(part) : part;
    const length = new Uint8Array(8);
    new DataView(length.buffer).setBigUint64(0, BigInt(bytes.length), false);
    chunks.push(length, bytes);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

Deno.test("blake3Framed: the BLAKE3 of the framed parts, whatever their sizes and mix", () => {
  // Sizes around the 64 KiB the frames are gathered in, and strings whose
  // UTF-8 is longer than their UTF-16 length (é: 2 bytes, 𝔑: 4 for 2 units).
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.constantFrom("é", "𝔑", "x").chain((unit) =>
      fc.integer({ min: 0, max: 70_000 }).map((n) => unit.repeat(Math.ceil(n / unit.length)))
    ),
  );
  const bytes = fc.integer({ min: 0, max: 70_000 }).map((n) => new Uint8Array(n).fill(n % 251));
  fc.assert(
    fc.property(fc.array(fc.oneof(text, bytes), { maxLength: 12 }), (parts) => {
      assertEquals(blake3Framed(parts), blake3(framedBytes(parts)));
    }),
    { numRuns: 60 },
  );
  assertEquals(blake3Framed([]), blake3(new Uint8Array()));
});

Deno.test("canonical JSON: sorted keys, no whitespace, integers only", () => {
  assertEquals(
    canonicalJson({ b: 1, a: [true, null, "x\n"], c: { z: 0, y: -2 } }),
    '{"a":[true,null,"x\\n"],"b":1,"c":{"y":-2,"z":0}}',
  );
  assertEquals(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
  assertThrows(() => canonicalJson({ a: 1.5 }));
  assertThrows(() => canonicalJson({ a: () => 1 }));
});

Deno.test("version: the constant equals deno.json's version", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assertEquals(VERSION, config.version);
});

Deno.test("duplicate keys: found with their path, nested and escaped, and only within one object", () => {
  assertEquals(findDuplicateKey('{"a":1,"b":2}'), null);
  assertEquals(findDuplicateKey('{"a":1,"a":2}'), '$["a"]');
  assertEquals(
    findDuplicateKey('{"d":{"x::f":{"k":1},"x::f":{}}}'),
    '$["d"]["x::f"]',
  );
  assertEquals(findDuplicateKey('[{"a":1},{"a":1}]'), null);
  assertEquals(findDuplicateKey('{"a":{"a":1}}'), null);
  assertEquals(findDuplicateKey('{"\\u0061":1,"a":2}'), '$["a"]');
  assertEquals(findDuplicateKey('{"s":"a\\":1,\\"s","t":[1,{"u":1,"u":2}]}'), '$["t"][]["u"]');
});
