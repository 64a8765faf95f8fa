/**
 * Syntax goldens: one case per syntax diagnostic code, tests/golden/syntax/<CODE>_<slug>.nz,
 * and beside it `<CODE>_<slug>.diagnostics.txt`: the diagnostics of `parse` rendered as
 * annotated source (tests/golden/README.md), then the outline of what still parsed after
 * the error and the number of error nodes.
 */
import { LineIndex } from "../../src/base/mod.ts";
import { serializeDiagnostics } from "../../src/semantics/mod.ts";
import { REGISTRY } from "../../src/base/mod.ts";
import { type Node, parse, walk } from "../../src/syntax/mod.ts";

const SYNTAX_DIAGNOSTICS = REGISTRY.filter((c) => c.group === "syntax");
import { goldenCases, goldenTest } from "../support/golden.ts";
import { renderDiagnostics } from "../support/render_diagnostics.ts";

const DIR = "tests/golden/syntax";
const encoder = new TextEncoder();

function outlineOf(node: Node): string {
  switch (node.kind) {
    case "Import":
      return `import ${node.path.map((n) => n.text).join(".")}`;
    case "FnDecl":
    case "RecordDecl":
    case "EnumDecl":
      return `${node.kind} ${node.name.text}`;
    default:
      return `${node.kind} ${node.start}..${node.end}`;
  }
}

goldenTest("syntax goldens", DIR, ".nz", (path, text) => {
  const bytes = encoder.encode(text);
  const file = path.slice(DIR.length + 1);
  const { tree, tokens, diagnostics } = parse(bytes, file);
  let joined = "";
  for (let i = 0; i < tokens.count; i++) joined += tokens.text(i);
  if (joined !== text) throw new Error("token texts do not rebuild the file");
  let errorNodes = 0;
  walk(tree, (n) => {
    if (n.kind === "Error") errorNodes++;
  });
  const serialized = serializeDiagnostics({
    files: [{ path: file, bytes, lineIndex: new LineIndex(bytes) }],
    diagnostics,
  });
  return renderDiagnostics(serialized, [{ path: file, bytes }]) +
    ["==== outline ====", ...[...tree.imports, ...tree.items].map(outlineOf)].join("\n") +
    `\nerror nodes: ${errorNodes}\n`;
}, { expectation: ".diagnostics.txt" });

Deno.test("every syntax diagnostic code has a golden case", () => {
  const names = goldenCases(DIR, ".nz").map((p) => p.slice(DIR.length + 1));
  const missing = SYNTAX_DIAGNOSTICS.filter((c) => !names.some((n) => n.startsWith(c.code + "_")))
    .map((c) => c.code);
  if (missing.length > 0) throw new Error(`no golden case for ${missing.join(", ")}`);
});

Deno.test("syntax diagnostic codes are unique, ordered and documented", () => {
  const seen = new Set<string>();
  for (const c of SYNTAX_DIAGNOSTICS) {
    if (!/^N01\d\d$/.test(c.code)) throw new Error(`bad code ${c.code}`);
    if (seen.has(c.code)) throw new Error(`duplicate code ${c.code}`);
    seen.add(c.code);
    if (!c.title || !c.explanation || !c.example) throw new Error(`${c.code} is undocumented`);
  }
});

Deno.test("each golden case raises its own code", () => {
  for (const path of goldenCases(DIR, ".nz")) {
    const code = path.slice(DIR.length + 1, DIR.length + 6);
    const { diagnostics } = parse(Deno.readFileSync(path), path);
    if (!diagnostics.some((d) => d.code === code)) {
      throw new Error(`${path} does not raise ${code}`);
    }
  }
});
