/**
 * What the conformance suite must cover, checked against the compiler's own
 * lists, so that an addition fails here until it is implemented and tested:
 * every prelude function has a runtime implementation in the one table and
 * a case `tests/run/prelude_<name>.nz`; every runtime error but `internal`
 * has a case `tests/run/error_<kind>….nz` that exits with its status; every
 * kind of expression and pattern appears in some case.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { PRELUDE_FUNCTIONS } from "../../src/semantics/mod.ts";
import { type Expr, parse, type Pattern, walk } from "../../src/syntax/mod.ts";
import * as runtime from "../../src/backend/runtime.js";
import { PRELUDE, RUNTIME_ERRORS } from "../../src/backend/mod.ts";
import { RUN_DIR, runCases } from "./_run_cases.ts";

function caseFiles(): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) visit(path);
      else if (entry.name.endsWith(".nz")) out.set(path, Deno.readTextFileSync(path));
    }
  };
  visit(RUN_DIR);
  return out;
}

Deno.test("coverage: every prelude function has one runtime implementation, in PRELUDE", () => {
  assertEquals(Object.keys(PRELUDE).sort(), [...PRELUDE_FUNCTIONS.keys()].sort());
  const exported = runtime as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(PRELUDE)) {
    assertEquals(exported[`$${name}`], fn, `runtime.js exports $${name} as PRELUDE.${name}`);
    assertEquals(fn.length, PRELUDE_FUNCTIONS.get(name)!.params.length, `${name}'s arity`);
  }
});

Deno.test("coverage: every prelude function has a conformance case that calls it", () => {
  const files = caseFiles();
  for (const name of PRELUDE_FUNCTIONS.keys()) {
    const path = `${RUN_DIR}/prelude_${name}.nz`;
    const text = files.get(path);
    assert(text !== undefined, `${path} is missing`);
    let called = false;
    walk(parse(new TextEncoder().encode(text!)).tree, (node) => {
      if (
        node.kind === "CallExpr" && node.callee.kind === "NameExpr" &&
        node.callee.name.text === name
      ) called = true;
    });
    assert(called, `${path} does not call ${name}`);
  }
});

Deno.test("coverage: every runtime error has a conformance case that exits with its status", () => {
  const cases = runCases();
  for (const [kind, { status }] of Object.entries(RUNTIME_ERRORS)) {
    // Only a bug of nazm raises `internal`: tests/backend/runtime_test.ts covers it.
    if (kind === "internal") continue;
    const mine = cases.filter((c) =>
      c.name === `error_${kind}` || c.name.startsWith(`error_${kind}_`)
    );
    assert(mine.length > 0, `no case tests/run/error_${kind}.nz`);
    for (const c of mine) {
      const expected = Deno.readTextFileSync(c.expected);
      assert(expected.startsWith(`status: ${status}\n`), `${c.expected} exits ${status}`);
      assert(expected.includes(`| error[${kind}]: `), `${c.expected} prints error[${kind}]`);
    }
  }
});

/** Every expression kind; the compiler fails to build this table when the syntax gains one. */
const EXPRESSIONS: Record<Exclude<Expr["kind"], "Error">, true> = {
  IntLit: true,
  FloatLit: true,
  StringLit: true,
  BoolLit: true,
  UnitLit: true,
  NameExpr: true,
  FieldExpr: true,
  CallExpr: true,
  RecordLit: true,
  ListLit: true,
  UnaryExpr: true,
  BinaryExpr: true,
  IfExpr: true,
  MatchExpr: true,
  Block: true,
  ReturnExpr: true,
  ParenExpr: true,
};

const PATTERNS: Record<Exclude<Pattern["kind"], "Error">, true> = {
  WildcardPattern: true,
  BindingPattern: true,
  LiteralPattern: true,
  VariantPattern: true,
  ListPattern: true,
};

Deno.test("coverage: every kind of expression, operator and pattern appears in a case", () => {
  const seen = new Set<string>();
  for (const text of caseFiles().values()) {
    walk(parse(new TextEncoder().encode(text)).tree, (node) => {
      seen.add(node.kind);
      if (node.kind === "BinaryExpr" || node.kind === "UnaryExpr") seen.add(`op ${node.op}`);
      if (node.kind === "LiteralPattern") seen.add(`pattern ${node.literal.kind}`);
      if (node.kind === "ListPattern" && node.rest !== null) {
        seen.add(node.rest.binding === null ? "rest without binding" : "rest binding");
      }
    });
  }
  const wanted = [
    ...Object.keys(EXPRESSIONS),
    ...Object.keys(PATTERNS),
    ...["||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "!"].map((op) =>
      `op ${op}`
    ),
    ...["IntLit", "FloatLit", "StringLit", "BoolLit", "UnitLit"].map((k) => `pattern ${k}`),
    "rest binding",
    "rest without binding",
  ];
  assertEquals(wanted.filter((k) => !seen.has(k)), []);
});

Deno.test("coverage: the test summary's schema names exactly the runtime's error kinds", () => {
  const schema = JSON.parse(Deno.readTextFileSync("schema/nazm.test-summary-1.json"));
  const failure = schema.properties.tests.items.properties.failure.anyOf[0];
  assertEquals(failure.properties.kind.enum, Object.keys(RUNTIME_ERRORS));
});
