/**
 * The registry: codes unique and well-formed, each with a golden case, each
 * example raising its code, docs/diagnostics.md up to date, every code the
 * checker reports registered.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { goldenCases } from "../support/golden.ts";
import { type At, type Diagnostic, DIAGNOSTICS, isSyntaxCode } from "../../src/base/mod.ts";
import { codeInfo, CODES, PRELUDE_FUNCTIONS, REGISTRY } from "../../src/semantics/mod.ts";
import { diagnosticsDoc } from "../../scripts/gen_diagnostics_doc.ts";
import { loadCase, loadCaseFile, splitCase } from "./_support.ts";

const GOLDEN_DIRS = ["tests/golden/semantics", "tests/golden/syntax"];

Deno.test("registry: codes are unique, well-formed and grouped by range", () => {
  const seen = new Set<string>();
  const ranges: Record<string, string> = {
    syntax: "N01",
    resolution: "N02",
    types: "N03",
    lints: "N04",
    program: "N05",
    loading: "N06",
  };
  for (const c of REGISTRY) {
    assert(/^N\d{4}$/.test(c.code), c.code);
    assert(!seen.has(c.code), `duplicate ${c.code}`);
    seen.add(c.code);
    assert(c.code.startsWith(ranges[c.group]), `${c.code} in group ${c.group}`);
    assert(c.title !== "" && c.explanation !== "" && c.example !== "", `${c.code} documented`);
    assertEquals(c.title[0], c.title[0].toLowerCase(), `${c.code} title lowercase`);
  }
});

Deno.test("registry: every code has a golden case", () => {
  const cases = GOLDEN_DIRS.flatMap((d) => {
    try {
      return goldenCases(d, ".nz").map((p) => p.slice(d.length + 1));
    } catch {
      return [];
    }
  });
  const missing = REGISTRY.filter((c) => !cases.some((p) => p.startsWith(`${c.code}_`)));
  assertEquals(missing.map((c) => c.code), []);
});

Deno.test("registry: each semantic golden case reports its code, and only registered codes", () => {
  for (const path of goldenCases("tests/golden/semantics", ".nz")) {
    const code = path.split("/").pop()!.slice(0, 5);
    const c = loadCaseFile(path);
    assert(c.diagnostics.some((d) => d.code === code), `${path} reports ${code}`);
    for (const d of c.diagnostics) assert(codeInfo(d.code) !== undefined, `${d.code} registered`);
    for (const d of c.diagnostics) {
      assertEquals(d.severity, codeInfo(d.code)!.severity, `${d.code} severity`);
      assert(!/[.]$/.test(d.message) && d.message[0] === d.message[0].toLowerCase(), d.message);
    }
  }
});

Deno.test("registry: each semantic example raises its code", () => {
  for (const c of REGISTRY) {
    if (c.group === "syntax" || c.group === "loading") continue;
    const comp = loadCase(splitCase(new TextEncoder().encode(c.example + "\n")));
    assert(
      comp.diagnostics.some((d) => d.code === c.code),
      `example of ${c.code}: ${comp.diagnostics.map((d) => d.code)}`,
    );
  }
});

/** Examples are fragments: their repairs may lack a main and leave a helper unused. */
const FRAGMENT_CODES = new Set([CODES.missingMain, CODES.unusedDefinition]);

Deno.test("registry: each example raises its code, and its repair has no diagnostic but a fragment's", () => {
  for (const c of REGISTRY) {
    // A loading code's example and repair are described (a file's bytes, size, permissions),
    // and so is a nesting 256 levels deep.
    if (c.group === "loading" || c.example.includes("…")) {
      assert(c.repair.startsWith("(") || c.repair.includes("…"), `${c.code} repair described`);
      continue;
    }
    const codesOf = (text: string) =>
      loadCase(splitCase(new TextEncoder().encode(text + "\n"))).diagnostics.map((d) => d.code);
    const wrong = codesOf(c.example);
    assert(wrong.includes(c.code), `example of ${c.code}: ${wrong}`);
    const repaired = codesOf(c.repair);
    assertEquals(
      repaired.filter((code) => code === c.code || !FRAGMENT_CODES.has(code)),
      [],
      `repair of ${c.code}`,
    );
    assert(c.repair !== c.example, c.code);
  }
});

Deno.test("registry: docs/diagnostics.md is generated from the registry", () => {
  assertEquals(
    Deno.readTextFileSync("docs/diagnostics.md"),
    diagnosticsDoc(),
    "run scripts/gen_diagnostics_doc.ts",
  );
});

Deno.test("prelude: every prelude function is in the specification with its signature", () => {
  const spec = Deno.readTextFileSync("docs/specification.md");
  for (const f of PRELUDE_FUNCTIONS.values()) {
    assert(spec.includes(`\`${f.signature}\``), `spec lists ${f.signature}`);
  }
});

/** Arguments for the messages that take more than names and counts. */
const ARGUMENTS: Record<string, unknown[]> = { "missingFields.literal": [["x", "y"], "Point"] };

Deno.test("code table: every code has a message, and its constructors give its code and severity", () => {
  for (const [name, entry] of Object.entries(DIAGNOSTICS)) {
    const reporters = Object.keys(entry.text);
    assert(reporters.length > 0, `${name} has a message`);
    for (const reporter of reporters) {
      const report = (entry as unknown as Record<string, (at: At, ...a: unknown[]) => Diagnostic>)[
        reporter
      ];
      const node = { start: 3, end: 7, kind: "NameRef", text: "x" };
      const args = ARGUMENTS[`${name}.${reporter}`] ?? ["x", "y", 2, 3];
      const d = report({ file: "a.nz", span: node }, ...args);
      assertEquals(d.code, entry.code, `${name}.${reporter}`);
      assertEquals(d.severity, entry.info.severity, `${name}.${reporter}`);
      // Only the place is kept of a node passed as the span.
      assertEquals(d.span, { start: 3, end: 7 });
      assert(d.message !== "" && !d.message.endsWith("."), `${name}.${reporter}: ${d.message}`);
      assertEquals(d.message[0], d.message[0].toLowerCase(), `${name}.${reporter} lowercase`);
    }
  }
});

Deno.test("code table: the syntax codes are exactly the syntax group, and CODES names every code", () => {
  for (const c of REGISTRY) assertEquals(isSyntaxCode(c.code), c.code.startsWith("N01"), c.code);
  assertEquals(isSyntaxCode("N9999"), false);
  assertEquals(Object.values(CODES).sort(), REGISTRY.map((c) => c.code));
  for (const [name, entry] of Object.entries(DIAGNOSTICS)) {
    assertEquals(CODES[name as keyof typeof CODES], entry.code);
    assertEquals(codeInfo(entry.code), entry.info);
  }
});
