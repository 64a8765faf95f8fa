/**
 * Golden cases for the semantic diagnostics: tests/golden/semantics/<CODE>_<slug>.nz
 * (several modules in one file with `// @file:` markers) and, beside it,
 * `<CODE>_<slug>.diagnostics.txt`: the serialized diagnostics rendered as
 * annotated source (tests/golden/README.md). `NAZM_GOLDEN_WRITE=1` rewrites.
 */
import { goldenTest } from "../support/golden.ts";
import { renderDiagnostics } from "../support/render_diagnostics.ts";
import { serializeDiagnostics } from "../../src/semantics/mod.ts";
import { loadCase, splitCase, writtenFiles } from "./_support.ts";

goldenTest("semantics golden", "tests/golden/semantics", ".nz", (path) => {
  const bytes = Deno.readFileSync(path);
  return renderDiagnostics(serializeDiagnostics(loadCase(splitCase(bytes))), writtenFiles(bytes));
}, { expectation: ".diagnostics.txt" });
