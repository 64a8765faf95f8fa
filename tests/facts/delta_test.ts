/**
 * nazm.semantic_delta on a copy of examples/shapes edited between two calls: what each kind
 * of edit changes, and that every hostile baseline is refused before any
 * comparison.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { copyExample, tempProgram } from "../support/fixtures.ts";
import { semanticDelta, semanticSnapshot } from "../../src/facts/mod.ts";
import type { Delta, Snapshot } from "../../src/contracts/mod.ts";
import { answerOf } from "../support/outcome.ts";

/** Snapshot, edit, delta: the delta's added, removed and changed lists. */
function deltaAfter(edit: (copy: ReturnType<typeof copyExample>) => void) {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    const before = answerOf(semanticSnapshot(config));
    edit(copy);
    const delta: Delta = answerOf(semanticDelta(config, before));
    return { added: delta.added, removed: delta.removed, changed: delta.changed };
  } finally {
    copy.dispose();
  }
}

Deno.test("delta: an unchanged disk gives an empty delta", () => {
  assertEquals(deltaAfter(() => {}), { added: [], removed: [], changed: [] });
});

Deno.test("delta: a comment alone changes source alone", () => {
  assertEquals(
    deltaAfter((c) =>
      c.edit("main.nz", `  if n > 100 {`, `  // more than a hundred\n  if n > 100 {`)
    ),
    { added: [], removed: [], changed: [{ key: "main::describe", sections: ["source"] }] },
  );
});

Deno.test("delta: a comment outside every definition changes nothing", () => {
  assertEquals(
    deltaAfter((c) => c.edit("main.nz", "fn describe", "// a note\n\nfn describe")),
    { added: [], removed: [], changed: [] },
  );
});

Deno.test("delta: a changed literal changes source alone", () => {
  assertEquals(
    deltaAfter((c) => c.edit("main.nz", `"large"`, `"big"`)),
    { added: [], removed: [], changed: [{ key: "main::describe", sections: ["source"] }] },
  );
  assertEquals(
    deltaAfter((c) => c.edit("geometry/shapes.nz", "3 * square(r)", "22 * square(r)")),
    { added: [], removed: [], changed: [{ key: "geometry.shapes::area", sections: ["source"] }] },
  );
});

Deno.test("delta: a renamed parameter changes source alone: calls are positional", () => {
  assertEquals(
    deltaAfter((c) =>
      c.edit(
        "main.nz",
        "fn describe(n: Int) -> String {\n  if n > 100",
        "fn describe(size: Int) -> String {\n  if size > 100",
      )
    ),
    { added: [], removed: [], changed: [{ key: "main::describe", sections: ["source"] }] },
  );
});

Deno.test("delta: a changed signature changes its shape and the dependent sections of its callers", () => {
  assertEquals(
    deltaAfter((c) => {
      c.edit(
        "main.nz",
        'fn describe(n: Int) -> String {\n  if n > 100 { "large" }',
        'fn describe(n: Int, unit: String) -> String {\n  if n > 100 { "large " + unit }',
      );
      c.edit("main.nz", "describe(total(all))", 'describe(total(all), "m2")');
    }),
    {
      added: [],
      removed: [],
      changed: [
        { key: "main::describe", sections: ["source", "shape"] },
        { key: "main::main", sections: ["source", "callees"] },
      ],
    },
  );
  // A type change that breaks the caller shows in its diagnostics too, not in its source.
  const typeChange = deltaAfter((c) =>
    c.edit("main.nz", "fn describe(n: Int)", "fn describe(n: Bool)")
  );
  const byKey = new Map(typeChange.changed.map((c) => [c.key, c.sections]));
  assert(byKey.get("main::describe")?.includes("shape"));
  assertEquals(byKey.get("main::main"), ["callees", "diagnostics"]);
});

Deno.test("delta: a rename is one removal and one addition", () => {
  const delta = deltaAfter((c) => {
    c.edit("main.nz", "fn describe(", "fn describe_size(");
    c.edit("main.nz", "print(describe(", "print(describe_size(");
  });
  assertEquals(delta.added, ["main::describe_size"]);
  assertEquals(delta.removed, ["main::describe"]);
  assertEquals(delta.changed, [{ key: "main::main", sections: ["source", "callees"] }]);
});

Deno.test("delta: a syntax error gives no snapshot and no delta", () => {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    const before = answerOf(semanticSnapshot(config));
    copy.edit("main.nz", "fn describe(n: Int)", "fn describe(n: Int");
    const snapshot = semanticSnapshot(config);
    assertEquals(snapshot.kind === "refusal" && snapshot.value.reason, "syntax_recovery");
    const delta = semanticDelta(config, before);
    assertEquals(delta.kind === "refusal" && delta.value.reason, "syntax_recovery");
  } finally {
    copy.dispose();
  }
});

Deno.test("delta: every hostile baseline is refused with its problem, before any comparison", () => {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    const good: Snapshot = answerOf(semanticSnapshot(config));
    const key = Object.keys(good.definitions)[0];
    const clone = () => JSON.parse(JSON.stringify(good));
    const cases: [string, unknown, string][] = [
      ["a path", "/etc/passwd", "not_a_snapshot"],
      ["null", null, "not_a_snapshot"],
      ["an array", [good], "not_a_snapshot"],
      ["another schema", { ...clone(), schema: "nazm.snapshot/2" }, "not_a_snapshot"],
      ["the last schema", { ...clone(), schema: "nazm.snapshot/3" }, "not_a_snapshot"],
      [
        "another root module",
        { ...clone(), root: { ...good.root, module: "app.main" } },
        "other_root",
      ],
      [
        "another root file",
        { ...clone(), root: { ...good.root, file: "app/main.nz" } },
        "other_root",
      ],
      ["a root that is a name", { ...clone(), root: "main" }, "not_a_snapshot"],
      ["a root with more", { ...clone(), root: { ...good.root, path: "/" } }, "unknown_field"],
      [
        "a root with a bad digest",
        { ...clone(), root: { ...good.root, source_root: "x" } },
        "bad_digest",
      ],
      ["another compiler", { ...clone(), compiler: "nazm 9.9.9" }, "other_compiler"],
      ["an unknown top field", { ...clone(), extra: 1 }, "unknown_field"],
      [
        "an unknown definition field",
        (() => {
          const b = clone();
          b.definitions[key].extra = true;
          return b;
        })(),
        "unknown_field",
      ],
      [
        "an unknown section",
        (() => {
          const b = clone();
          b.definitions[key].digests.effects = "0".repeat(64);
          return b;
        })(),
        "unknown_field",
      ],
      [
        "a malformed key",
        (() => {
          const b = clone();
          b.definitions["../../etc/passwd"] = b.definitions[key];
          return b;
        })(),
        "malformed_key",
      ],
      [
        "a key that disagrees with its entry",
        (() => {
          const b = clone();
          b.definitions["main::elsewhere"] = b.definitions[key];
          return b;
        })(),
        "malformed_key",
      ],
      [
        "a bad digest",
        (() => {
          const b = clone();
          b.definitions[key].digests.shape = "ABC";
          return b;
        })(),
        "bad_digest",
      ],
      [
        "a missing digest",
        (() => {
          const b = clone();
          delete b.definitions[key].digests.callers;
          return b;
        })(),
        "not_a_snapshot",
      ],
    ];
    for (const [what, baseline, problem] of cases) {
      const outcome = semanticDelta(config, baseline);
      if (outcome.kind !== "refusal") throw new Error(`${what}: not refused`);
      assertEquals(outcome.value.reason, "invalid_baseline", what);
      assertEquals(outcome.value.problem, problem, what);
    }
  } finally {
    copy.dispose();
  }
});

Deno.test("delta: a snapshot of another program whose root module is also main is refused", () => {
  const source = 'fn main() -> Unit { print("a") }\n';
  const first = tempProgram({ "main.nz": source });
  const second = tempProgram({ "main.nz": source });
  try {
    const baseline = answerOf(semanticSnapshot({ root: first.root, sourceRoot: first.dir }));
    assertEquals([baseline.root.module, baseline.root.file], ["main", "main.nz"]);
    const outcome = semanticDelta({ root: second.root, sourceRoot: second.dir }, baseline);
    if (outcome.kind !== "refusal") throw new Error("compared another program's snapshot");
    assertEquals(
      [outcome.value.reason, outcome.value.problem, outcome.value.path],
      ["invalid_baseline", "other_root", "$.root.source_root"],
    );
    // The same program keeps its identity from one call to the next.
    const again = answerOf(semanticSnapshot({ root: first.root, sourceRoot: first.dir }));
    assertEquals(again.root, baseline.root);
    assertEquals(
      answerOf(semanticDelta({ root: first.root, sourceRoot: first.dir }, baseline)).changed,
      [],
    );
  } finally {
    first.dispose();
    second.dispose();
  }
});
