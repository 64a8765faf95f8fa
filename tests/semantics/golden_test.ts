/**
 * Golden cases for the semantic diagnostics: tests/golden/semantics/<CODE>_<slug>.nz
 * with the serialized diagnostics beside it. `NAZM_GOLDEN_WRITE=1` rewrites.
 */
import { goldenTest } from "../support/golden.ts";
import { serializeDiagnostics } from "../../src/semantics/mod.ts";
import { loadCaseFile } from "./_support.ts";

goldenTest("semantics golden", "tests/golden/semantics", ".nz", (path) => {
  const c = loadCaseFile(path);
  return { diagnostics: serializeDiagnostics(c) };
});
