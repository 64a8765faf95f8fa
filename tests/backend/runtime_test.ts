/**
 * The runtime's invariants, as properties: Int arithmetic equals exact
 * 64-bit arithmetic (or raises `overflow`) and keeps one representation per
 * value; strings compare by code points; lists never change under another
 * list's operations; equality and `to_string` walk values of any depth.
 */
import fc from "fast-check";
import { anyInt, MAX, MIN, SAFE } from "./_ints.ts";
import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import * as rt from "../../src/backend/runtime.js";

/** An Int in the runtime's representation. */
function int(v: bigint): number | bigint {
  return v >= -SAFE && v <= SAFE ? Number(v) : v;
}

function expectInt(actual: () => unknown, exact: bigint | null): void {
  if (exact === null || exact < MIN || exact > MAX) {
    let kind = "";
    try {
      actual();
    } catch (e) {
      kind = (e as { kind?: string }).kind ?? String(e);
    }
    assert(kind === "overflow" || kind === "division_by_zero", `expected an error, got ${kind}`);
    return;
  }
  const value = actual();
  assertEquals(value, int(exact));
  if (typeof value === "number") assert(!Object.is(value, -0), "Int has no -0");
}

Deno.test("runtime: Int + - * / % and negation are exact 64-bit, or overflow", () => {
  fc.assert(
    fc.property(anyInt, anyInt, (a, b) => {
      const x = int(a);
      const y = int(b);
      expectInt(() => rt.$add(x, y), a + b);
      expectInt(() => rt.$sub(x, y), a - b);
      expectInt(() => rt.$mul(x, y), a * b);
      expectInt(() => rt.$div(x, y), b === 0n ? null : a / b);
      expectInt(() => rt.$rem(x, y), b === 0n ? null : a % b);
      expectInt(() => rt.$neg(x), -a);
      // Comparison across representations is exact.
      assertEquals(x < y, a < b);
      assertEquals(x === y, a === b);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("runtime: division by zero and the overflow cases name the operation", () => {
  const kindOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return `${(e as rt.NazmError).kind}: ${(e as Error).message}`;
    }
    return "no error";
  };
  assertEquals(kindOf(() => rt.$div(7, 0)), "division_by_zero: 7 / 0");
  assertEquals(kindOf(() => rt.$rem(-7, 0)), "division_by_zero: -7 % 0");
  assertEquals(
    kindOf(() => rt.$div(MIN, -1)),
    "overflow: -9223372036854775808 / -1 does not fit in Int",
  );
  assertEquals(kindOf(() => rt.$neg(MIN)), "overflow: -(-9223372036854775808) does not fit in Int");
});

Deno.test("runtime: strings compare by code points, and their UTF-8 length is exact", () => {
  const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0)!);
  const byCodePoints = (a: string, b: string) => {
    const x = codePoints(a);
    const y = codePoints(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
  };
  const text = fc.string({ unit: "binary" });
  fc.assert(
    fc.property(text, text, (a, b) => {
      assertEquals(rt.$scmp(a, b), byCodePoints(a, b));
      assertEquals(rt.utf8Length(a), new TextEncoder().encode(a).length);
      assertEquals(rt.$len(a), codePoints(a).length);
    }),
    { numRuns: 2000 },
  );
});

type Op =
  | { k: "push"; from: number; item: number }
  | { k: "concat"; a: number; b: number }
  | { k: "prepend"; to: number; item: number }
  | { k: "tail"; of: number }
  | { k: "reverse"; of: number };

Deno.test("runtime: lists sharing storage never see each other's pushes and prepends", () => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ k: fc.constant("push" as const), from: fc.nat(), item: fc.integer() }),
    fc.record({ k: fc.constant("concat" as const), a: fc.nat(), b: fc.nat() }),
    fc.record({ k: fc.constant("prepend" as const), to: fc.nat(), item: fc.integer() }),
    fc.record({ k: fc.constant("tail" as const), of: fc.nat() }),
    fc.record({ k: fc.constant("reverse" as const), of: fc.nat() }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const lists: rt.List[] = [rt.$list([]), rt.$list([1, 2, 3])];
      const models: number[][] = [[], [1, 2, 3]];
      const pick = (i: number) => i % lists.length;
      for (const o of ops) {
        let list: rt.List;
        let model: number[];
        switch (o.k) {
          case "push":
            list = rt.$push(lists[pick(o.from)], o.item);
            model = [...models[pick(o.from)], o.item];
            break;
          case "concat":
            list = rt.$concat(lists[pick(o.a)], lists[pick(o.b)]);
            model = [...models[pick(o.a)], ...models[pick(o.b)]];
            break;
          case "prepend":
            list = rt.$concat(rt.$list([o.item]), lists[pick(o.to)]);
            model = [o.item, ...models[pick(o.to)]];
            break;
          case "tail":
            list = rt.$tail(lists[pick(o.of)]);
            model = models[pick(o.of)].slice(1);
            break;
          case "reverse":
            list = rt.$reverse(lists[pick(o.of)]);
            model = [...models[pick(o.of)]].reverse();
            break;
        }
        lists.push(list);
        models.push(model);
        for (let i = 0; i < lists.length; i++) {
          const l = lists[i];
          assertEquals(Array.from({ length: rt.$size(l) }, (_, j) => rt.$at(l, j)), models[i]);
        }
      }
    }),
    { numRuns: 300 },
  );
});

class Chain {
  $$t: number;
  $0: unknown;
  constructor(t: number, next: unknown) {
    this.$$t = t;
    this.$0 = next;
  }
}
rt.$enum(Chain, "Chain", [["Link", 1], ["End", 0]]);

Deno.test("runtime: == and to_string walk a value 200,000 levels deep without recursion", () => {
  const build = () => {
    let v: Chain = new Chain(1, undefined);
    for (let i = 0; i < 200_000; i++) v = new Chain(0, v);
    return v;
  };
  const a = build();
  assert(rt.$eq(a, build()));
  const text = rt.$to_string(a);
  assert(text.startsWith("Chain.Link(Chain.Link("));
  assert(text.endsWith("Chain.End" + ")".repeat(200_000)));
  assert(!rt.$eq(a, new Chain(1, undefined)));
});

Deno.test("runtime: a JavaScript error that is not the program's is `internal`", () => {
  const program = {
    main: null,
    mainInt: false,
    mainPlace: null,
    tests: [],
    files: [],
    names: [],
    map: "",
    end: 0,
  };
  const report = rt.report(new TypeError("x is not a function"), program);
  assertEquals(report.kind, "internal");
  assertEquals(report.message, "TypeError: x is not a function");
  assertEquals(rt.RUNTIME_ERRORS[report.kind].status, 111);
  assertThrows(() => rt.$nomatch());
});

/** Strings over a few characters, astral ones and whitespace included, so that matches happen. */
const text = fc.array(fc.constantFrom("a", "b", ",", " ", "é", "😀", "\u3000", "\n"), {
  maxLength: 12,
}).map((cs) => cs.join(""));

/** The Nazm string operations' results as plain values. */
const listOf = (xs: unknown) => {
  const n = rt.$len(xs as rt.List) as number;
  return Array.from({ length: n }, (_, i) => rt.$at(xs as rt.List, i));
};
const optional = (o: unknown) => {
  const v = o as { $$t: number; $0: unknown };
  return v.$$t === 0 ? v.$0 : null;
};

Deno.test("runtime: split, join and replace agree; index_of is in characters", () => {
  fc.assert(
    fc.property(text, text.filter((s) => s !== ""), text, (t, sep, by) => {
      const parts = rt.$split(t, sep);
      assertEquals(rt.$join(parts, sep), t);
      assertEquals(rt.$replace(t, sep, by), rt.$join(parts, by));
      for (const part of listOf(parts)) assert(!(part as string).includes(sep));
      const at = optional(rt.$index_of(t, sep));
      assertEquals(at !== null, rt.$contains(t, sep));
      if (at !== null) {
        const n = rt.$len(sep) as number;
        assertEquals(rt.$substring(t, at as number, (at as number) + n), sep);
        assert(!rt.$contains(rt.$substring(t, 0, (at as number) + n - 1), sep));
      }
      assertEquals(rt.$starts_with(t, sep), optional(rt.$index_of(t, sep)) === 0);
      const reversed = (s: string) => [...s].reverse().join("");
      assertEquals(rt.$ends_with(t, sep), rt.$starts_with(reversed(t), reversed(sep)));
    }),
  );
});

Deno.test("runtime: trim removes whitespace at the ends only, and is idempotent", () => {
  fc.assert(
    fc.property(text, (t) => {
      const trimmed = rt.$trim(t);
      assertEquals(rt.$trim(trimmed), trimmed);
      assert(t.includes(trimmed));
      assert(!/^\p{White_Space}|\p{White_Space}$/u.test(trimmed));
      assertEquals(rt.$trim(` \u3000${trimmed}\n`), trimmed);
    }),
  );
});

Deno.test("runtime: slice and get agree with the elements, and a slice never changes its list", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer(), { maxLength: 10 }),
      fc.integer({ min: -3, max: 13 }),
      fc.integer({ min: -3, max: 13 }),
      (xs, a, b) => {
        const list = rt.$list(xs);
        const s = rt.$slice(list, a, b);
        const from = Math.min(Math.max(a, 0), xs.length);
        const to = Math.min(Math.max(b, 0), xs.length);
        assertEquals(listOf(s), to > from ? xs.slice(from, to) : []);
        for (let i = -1; i <= xs.length; i++) {
          assertEquals(optional(rt.$get(list, i)), i >= 0 && i < xs.length ? xs[i] : null);
        }
        rt.$push(s, 99);
        rt.$concat(s, list);
        assertEquals(listOf(list), xs);
      },
    ),
  );
});
