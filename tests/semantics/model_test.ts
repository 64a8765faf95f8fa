/**
 * The semantic model of the examples, in golden files rendered as annotated
 * source (tests/golden/model/<example>.model.txt; tests/golden/README.md), and
 * the invariants every model holds:
 * each occurrence's text is the referred definition's name, links are
 * sorted and inverse to each other, `definitionAt` finds every name.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { checkGoldenText } from "../support/golden.ts";
import { modelFacts, renderModel } from "../support/render_model.ts";
import {
  type Compilation,
  definitionAt,
  findDefinition,
  loadCompilation,
  renameConflict,
} from "../../src/semantics/mod.ts";
import { loadCase, splitCase } from "./_support.ts";

const EXAMPLES = ["shapes", "ledger"];
const decoder = new TextDecoder();

/** The invariants of a model, on any compilation. */
export function checkModelInvariants(c: Compilation): void {
  const text = (file: string, s: { start: number; end: number }) =>
    decoder.decode(c.files.find((f) => f.path === file)!.bytes.subarray(s.start, s.end));
  const sorted = <T>(xs: readonly T[], key: (x: T) => string) =>
    xs.every((x, i) => i === 0 || key(xs[i - 1]) < key(x));
  assert(sorted(c.model.definitions, (d) => d.key), "definitions sorted by key");
  for (const d of c.model.definitions) {
    assertEquals(text(d.file, d.nameSpan), d.name);
    assertEquals(definitionAt(c.model, d.file, d.nameSpan.start)?.key, d.key);
    const forward = [...d.uses, ...d.types, ...d.calls];
    for (const section of [d.uses, d.types, d.calls, d.usedBy, d.calledBy]) {
      assert(sorted(section, (l) => l.key), `links of ${d.key} sorted`);
    }
    for (const link of forward) {
      const target = findDefinition(c.model, link.key);
      assert(target !== null, `link ${d.key} -> ${link.key} to a definition`);
      for (const o of link.occurrences) {
        assertEquals(
          text(o.file, o.span),
          target.name,
          `occurrence text of ${link.key} in ${d.key}`,
        );
        assertEquals(definitionAt(c.model, o.file, o.span.start)?.key, link.key);
        assert(o.span.start >= d.span.start && o.span.end <= d.span.end, "occurrence inside");
      }
    }
    for (const link of d.calls) {
      const back = findDefinition(c.model, link.key)!.calledBy.find((l) => l.key === d.key);
      assertEquals(back?.occurrences, link.occurrences);
    }
    for (const b of d.bindings) {
      assertEquals(text(d.file, b.declSpan), b.name);
      for (const r of b.references) assertEquals(text(d.file, r.span), b.name);
    }
  }
}

for (const name of EXAMPLES) {
  Deno.test(`model: examples/${name}`, () => {
    const c = loadCompilation(`examples/${name}/main.nz`);
    assertEquals(c.diagnostics.map((d) => `${d.code} ${d.file}:${d.span?.start} ${d.message}`), []);
    checkModelInvariants(c);
    checkGoldenText(
      `examples/${name}`,
      `tests/golden/model/${name}.model.txt`,
      renderModel(c.files, modelFacts(c)),
    );
  });
}

Deno.test("model: definitionAt on imports, qualified names, types, and nowhere", () => {
  const c = loadCompilation("examples/shapes/main.nz");
  const main = c.files.find((f) => f.path === "main.nz")!;
  const src = decoder.decode(main.bytes);
  const at = (needle: string, delta = 0) =>
    definitionAt(c.model, "main.nz", src.indexOf(needle) + delta)?.key ?? null;
  assertEquals(at("{Point", 1), "geometry.shapes::Point");
  assertEquals(at("shapes.area", 7), "geometry.shapes::area");
  assertEquals(at("Shape.Rect"), "geometry.shapes::Shape");
  assertEquals(at("-> Result", 3), null);
  assertEquals(at("fn describe", 3), "main::describe");
  assertEquals(at('"large"'), null);
});

Deno.test("model: shapes hold durable identities only", () => {
  const a = loadCase(
    splitCase(new TextEncoder().encode("fn main() -> Unit {}\n\nfn f(x: Int) -> Int { x }\n")),
  );
  const b = loadCase(
    splitCase(
      new TextEncoder().encode(
        "// moved\n\n\nfn main() -> Unit {}\n\n/// doc\nfn f(x: Int) -> Int { x + 1 }\n",
      ),
    ),
  );
  assertEquals(
    findDefinition(a.model, "main::f")!.shape,
    findDefinition(b.model, "main::f")!.shape,
  );
});

Deno.test("model: rename conflicts of locals", () => {
  const src =
    "fn main() -> Unit {\n  let a = 1;\n  let b = 2;\n  print(to_string(a + b));\n  let c = { let d = 3; d + a };\n  print(to_string(c))\n}\n";
  const comp = loadCase(splitCase(new TextEncoder().encode(src)));
  const main = findDefinition(comp.model, "main::main")!;
  const index = (n: string) => main.bindings.findIndex((b) => b.name === n);
  assert(renameConflict(main, index("a"), "b") !== null, "a -> b collides");
  assert(renameConflict(main, index("d"), "a") !== null, "d -> a captures a");
  assert(renameConflict(main, index("a"), "print") !== null, "a -> print captures the prelude");
  assertEquals(renameConflict(main, index("a"), "zeta"), null);
  assertEquals(renameConflict(main, index("d"), "b"), null);
});
