/**
 * Renames on small programs written for one rule each: names in type
 * positions count for the conflict checks, a definition named in a record
 * field shorthand keeps the field's name, and a type parameter's invalid
 * name is explained as one. A refusal here must come from the conflict
 * checks themselves (`name_conflict`), not from verification.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { loadCase, splitCase } from "../semantics/_support.ts";
import {
  applyPatch,
  type Outcome,
  type Patch,
  semanticPatchOf,
  snapshotDigest,
  snapshotOf,
} from "../../src/facts/mod.ts";
import type { Compilation } from "../../src/semantics/mod.ts";

const encoder = new TextEncoder();

function compile(source: string): Compilation {
  return loadCase(splitCase(encoder.encode(source)));
}

/** The 1-based line and column of the `nth` (0-based) occurrence of `needle` as a word. */
function at(source: string, needle: string, nth = 0): { line: number; column: number } {
  const re = new RegExp(`\\b${needle}\\b`, "g");
  let m: RegExpExecArray | null = null;
  for (let i = 0; i <= nth; i++) {
    m = re.exec(source);
    if (m === null) throw new Error(`no occurrence ${nth} of ${needle}`);
  }
  const before = source.slice(0, m!.index);
  const line = before.split("\n").length;
  return { line, column: m!.index - before.lastIndexOf("\n") };
}

function rename(source: string, needle: string, newName: string, nth = 0): Outcome<Patch> {
  return semanticPatchOf(compile(source), {
    operation: "rename",
    file: "main.nz",
    position: at(source, needle, nth),
    new_name: newName,
  });
}

function reason(outcome: Outcome<Patch>): string {
  return outcome.kind === "refusal" ? outcome.value.reason : "answer";
}

function message(outcome: Outcome<Patch>): string {
  return outcome.kind === "refusal" ? outcome.value.message : "answer";
}

/** The source after applying a planned rename, checked as a careful client does. */
function applied(source: string, outcome: Outcome<Patch>): string {
  if (outcome.kind !== "answer") throw new Error(outcome.value.message);
  const compilation = compile(source);
  const result = applyPatch(outcome.value, {
    read: () => encoder.encode(source),
    snapshot: snapshotDigest(snapshotOf(compilation)),
  });
  if (typeof result === "string") throw new Error(result);
  return new TextDecoder().decode(result.get("main.nz")!);
}

const BOX = `record Box { value: Int }

fn keep[T](b: Box, x: T) -> T { let _b: Box = b; x }

fn make[T](x: T) -> Box[Int] { Box { value: 1 } }

fn main() -> Unit { print(to_string(keep(Box { value: 1 }, 2).value)) }
`;

Deno.test("rename: a type parameter cannot take the name of a type its definition names", () => {
  // `T` → `Box` in keep: the annotation `Box` and the parameter type would mean `T`.
  const keep = rename(BOX, "T", "Box", 0);
  assertEquals(reason(keep), "name_conflict", JSON.stringify(keep.value));
  // In make: `Box[Int]` (N0308) and the literal `Box { … }` (N0311) would mean `T`.
  const make = rename(BOX, "T", "Box", 3);
  assertEquals(reason(make), "name_conflict", JSON.stringify(make.value));
});

Deno.test("rename: a record cannot take the name of a type parameter where it is named", () => {
  const outcome = rename(BOX, "Box", "T");
  assertEquals(reason(outcome), "name_conflict", JSON.stringify(outcome.value));
  // Where no type parameter `U` sees it, the record may take that name.
  assertEquals(reason(rename(BOX, "Box", "Crate")), "answer");
});

Deno.test("rename: a record may take an unused type parameter's name in another definition only", () => {
  const source = `record Box { value: Int }

fn other[U](u: U) -> U { u }

fn main() -> Unit { print(to_string(other(Box { value: 1 }).value)) }
`;
  // `U` in other does not see Box: the rename captures nothing.
  assertEquals(reason(rename(source, "Box", "U")), "answer");
});

Deno.test("rename: a type parameter cannot take an unknown type's name (it would resolve it)", () => {
  const source = `fn f[T](x: T, y: Missing) -> T { x }

fn main() -> Unit {}
`;
  assertEquals(reason(rename(source, "T", "Missing")), "name_conflict");
});

Deno.test("rename: a function named in a record field shorthand keeps the field's name", () => {
  const source = `record Ops { step: fn(Int) -> Int }

fn step(n: Int) -> Int { n + 1 }

fn main() -> Unit {
  let ops = Ops { step };
  print(to_string((ops.step)(1)))
}
`;
  const outcome = rename(source, "step", "advance", 1);
  if (outcome.kind !== "answer") throw new Error(outcome.value.message);
  assertEquals(outcome.value.edits.map((e) => [e.expected, e.replacement]), [
    ["step", "advance"],
    ["step", "step: advance"],
  ]);
  const text = applied(source, outcome);
  assert(text.includes("Ops { step: advance }"), text);
  assertEquals(compile(text).diagnostics.map((d) => `${d.code} ${d.message}`), []);
});

Deno.test("rename: an invalid name for a type parameter says what a type parameter's name is", () => {
  const outcome = rename(BOX, "T", "t", 0);
  assertEquals(reason(outcome), "invalid_name");
  assertEquals(
    message(outcome),
    "a type parameter's name starts with an upper-case letter A–Z (`T`, `Item`)",
  );
  const record = rename(BOX, "Box", "box");
  assertEquals(message(record), "a record's name starts with an upper-case letter A–Z");
  const fn = rename(BOX, "keep", "Keep");
  assertEquals(
    message(fn),
    "a function's name starts with a lower-case letter or `_`: an upper-case name in a pattern is a variant",
  );
});
