/**
 * Layers point one way (docs/architecture.md §2.1): the rule of layers.ts
 * holds for this repository, and fails, naming the import, on a fixture
 * for each way to break it — an upward import, a reach past a mod.ts, and
 * a cycle inside one folder.
 */
import { assertEquals } from "../support/assert.ts";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { layerProblems } from "./layers.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const fixture = (name: string) => join(here, "fixtures", name);

Deno.test("layers: every import points down, only through mod.ts, and no files import in a circle", () => {
  const problems = layerProblems(repo);
  assertEquals(problems, []);
});

Deno.test("layers: a clean fixture has no problem", () => {
  assertEquals(layerProblems(fixture("clean")), []);
});

Deno.test("layers: an upward import fails", () => {
  assertEquals(layerProblems(fixture("upward")), [
    "src/base/mod.ts imports src/syntax/mod.ts: base may not import syntax",
  ]);
});

Deno.test("layers: a reach past another layer's mod.ts fails", () => {
  assertEquals(layerProblems(fixture("past_mod")), [
    "src/syntax/mod.ts imports src/base/span.ts: use src/base/mod.ts",
  ]);
});

Deno.test("layers: a cycle inside one folder fails", () => {
  assertEquals(layerProblems(fixture("folder_cycle")), [
    "import cycle among src/base/one.ts, src/base/two.ts",
  ]);
});
