/**
 * One JSON golden per published schema: tests/golden/schema/<schema file>
 * is a real answer of the tool that publishes it — its own `run`, with
 * arguments parsed by its input shape, as the analysis worker calls it, or
 * for the summaries of `nazm test` and `nazm build`, the command itself — on
 * a bundled program (examples/shapes, the small repository in
 * tests/golden/schema/repository with its program with diagnostics, or the
 * test suite of tests/golden/test), valid against schema/<file> under Ajv's
 * 2020-12 validator. The annotated
 * goldens show facts; these show the published shape of each answer, field
 * by field. `NAZM_GOLDEN_WRITE=1` rewrites them.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { copyExample, REPO } from "../support/fixtures.ts";
import { checkGoldenText, stableJson } from "../support/golden.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { blake3 } from "../../src/base/mod.ts";
import { snapshotDigest } from "../../src/facts/mod.ts";
import type { Snapshot } from "../../src/contracts/mod.ts";
import { PUBLISHED_SCHEMAS, type ToolContext, TOOLS } from "../../src/mcp/mod.ts";
import { main } from "../../src/cli/main.ts";
import { HANDLERS } from "../../src/mcp/handlers.ts";

type Answer = Record<string, unknown>;

const DIR = join(REPO, "tests/golden/schema");
const REPOSITORY = join(DIR, "repository");

/** Where the goldens' examples/shapes is, as far as its digests tell. */
const STAND_IN = "/nazm/examples/shapes";
const DRAFT: ToolContext = {
  paths: {
    root: join(REPOSITORY, "examples/draft/main.nz"),
    sourceRoot: join(REPOSITORY, "examples/draft"),
    docsRoot: REPOSITORY,
  },
  facts: {},
};

/** Calls a tool as the worker does; a refusal fails the test (every golden is an answer). */
async function call(name: string, args: Answer, context: ToolContext): Promise<Answer> {
  const tool = TOOLS.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`${name} is not registered`);
  const outcome = await HANDLERS[tool.name](tool.input.parse(args), context);
  if (outcome.kind !== "answer") throw new Error(`${name} refused: ${outcome.value.message}`);
  // The wire form: what JSON.stringify drops (undefined) is not part of an answer.
  const value = JSON.parse(JSON.stringify(outcome.value)) as Answer;
  assertValidAgainst(tool.outputSchema, value);
  return value;
}

/**
 * The facts of examples/shapes, from a copy: context, snapshot and a rename
 * plan as they are, then the delta after an edit. Digests that hold the
 * source root's absolute path (`root.source_root`, and the digests of the
 * snapshots that carry it) are checked, then replaced by those a checkout
 * at {@link STAND_IN} gets, so that the goldens do not depend on where the
 * repository is.
 */
async function shapesAnswers(out: Map<string, Answer>): Promise<void> {
  const copy = copyExample("shapes");
  try {
    const context: ToolContext = {
      paths: { root: copy.root, sourceRoot: copy.dir, docsRoot: REPOSITORY },
      facts: {},
    };
    const found: [string, Answer][] = [];
    found.push([
      "nazm.context-4.json",
      await call("nazm.semantic_context", {
        file: "geometry/shapes.nz",
        position: { line: 15, column: 8 },
      }, context),
    ]);
    const before = await call("nazm.semantic_snapshot", {}, context);
    found.push(["nazm.snapshot-4.json", before]);
    const patch = await call("nazm.semantic_patch", {
      operation: "rename",
      file: "main.nz",
      position: { line: 5, column: 4 },
      new_name: "label",
    }, context);
    found.push(["nazm.patch-2.json", patch]);
    copy.edit("geometry/shapes.nz", "3 * square(r)", "3 * r * r");
    const shapes = copy.read("geometry/shapes.nz");
    copy.write(
      "geometry/shapes.nz",
      shapes.slice(0, shapes.indexOf("pub fn first_or")) +
        "pub fn perimeter(s: Shape) -> Int {\n  0\n}\n",
    );
    const after = await call("nazm.semantic_snapshot", {}, context);
    const delta = await call("nazm.semantic_delta", { baseline: before }, context);
    found.push(["nazm.delta-2.json", delta]);

    const root = (snapshot: Answer) => (snapshot.root as { source_root: string }).source_root;
    assertEquals(root(before), blake3(copy.dir), "root.source_root is the source root's digest");
    const standIn = blake3(STAND_IN);
    const digests = (snapshot: Answer) => [
      snapshotDigest(snapshot as unknown as Snapshot),
      snapshotDigest(
        {
          ...snapshot,
          root: { ...snapshot.root as object, source_root: standIn },
        } as unknown as Snapshot,
      ),
    ];
    const [beforeDigest, beforeStandIn] = digests(before);
    const [afterDigest, afterStandIn] = digests(after);
    assertEquals((patch.baseline as { snapshot: string }).snapshot, beforeDigest);
    assertEquals([root(delta), delta.baseline, delta.current], [
      root(before),
      beforeDigest,
      afterDigest,
    ]);
    const replaced: [string, string][] = [
      [root(before), standIn],
      [beforeDigest, beforeStandIn],
      [afterDigest, afterStandIn],
    ];
    for (const [file, answer] of found) {
      let text = JSON.stringify(answer);
      for (const [from, to] of replaced) text = text.replaceAll(from, to);
      const moved = JSON.parse(text);
      assertValidAgainst(file, moved);
      out.set(file, moved);
    }
  } finally {
    copy.dispose();
  }
}

/** What a command printed on stdout, as JSON, with its exit status. */
async function command(...args: string[]): Promise<[number, Answer]> {
  let stdout = "";
  const status = await main(args, { stdout: (t) => (stdout += t), stderr: () => {} });
  return [status, JSON.parse(stdout) as Answer];
}

/**
 * The summaries of `nazm test` (the suite of tests/golden/test, failures
 * and all) and `nazm build` (examples/shapes). Durations are set to 0; the
 * built file's path, size and digest are checked against the file, then
 * replaced by a path under {@link STAND_IN}'s checkout and the size and
 * digest of an empty file, so that a change to the runtime does not churn
 * the golden.
 */
async function commandAnswers(out: Map<string, Answer>): Promise<void> {
  const [testStatus, tests] = await command(
    "test",
    join(REPO, "tests/golden/test/suite/main.nz"),
    "--timeout",
    "0.5",
    "--summary-json",
  );
  assertEquals(testStatus, 1, "the suite has failing tests");
  tests.duration_ms = 0;
  for (const t of tests.tests as Answer[]) t.duration_ms = 0;
  assertValidAgainst("nazm.test-summary-1.json", tests);
  out.set("nazm.test-summary-1.json", tests);

  const copy = copyExample("shapes");
  try {
    const target = join(copy.dir, "shapes.js");
    const [buildStatus, build] = await command(
      "build",
      copy.root,
      "-o",
      target,
      "--summary-json",
    );
    assertEquals(buildStatus, 0);
    const bytes = Deno.readFileSync(target);
    assertEquals(build.output, { path: target, bytes: bytes.length, digest: blake3(bytes) });
    build.output = { path: `${STAND_IN}/shapes.js`, bytes: 0, digest: blake3(new Uint8Array()) };
    assertValidAgainst("nazm.build-summary-1.json", build);
    out.set("nazm.build-summary-1.json", build);
  } finally {
    copy.dispose();
  }
}

/** Each published schema's file → the answer its golden holds. */
async function answers(): Promise<Map<string, Answer>> {
  const out = new Map<string, Answer>();
  await shapesAnswers(out);
  await commandAnswers(out);
  const index = await call("nazm.diagnostics", {}, DRAFT);
  out.set("nazm.diagnostic-index-2.json", index);
  const listed = index.diagnostics as { id: string; code: string }[];
  const typo = listed.find((d) => d.code === "N0201");
  if (typo === undefined) throw new Error("the draft program has no N0201");
  out.set(
    "nazm.diagnostic-2.json",
    await call("nazm.diagnostic_detail", {
      id: typo.id,
      state: (index.state as { source: string }).source,
    }, DRAFT),
  );
  out.set("nazm.command-summary-1.json", await call("nazm.command_summary", {}, DRAFT));
  const docs = await call("nazm.docs_index", {}, DRAFT);
  out.set("nazm.docs-index-1.json", docs);
  out.set(
    "nazm.docs-section-1.json",
    await call("nazm.docs_section", { id: "rules/greetings", state: docs.state }, DRAFT),
  );
  const map = await call("nazm.repository_map", {}, DRAFT);
  out.set("nazm.repository-map-1.json", map);
  out.set(
    "nazm.task-context-1.json",
    await call("nazm.task_context", {
      seeds: ["definition:draft/main::greet"],
      state: map.state,
      intent: "edit",
    }, DRAFT),
  );
  return out;
}

Deno.test("schema goldens: one real answer per published schema, valid against it", async (t) => {
  const all = await answers();
  assertEquals(
    [...all.keys()].sort(),
    PUBLISHED_SCHEMAS.map((s) => s.file).sort(),
    "every published schema has exactly one golden answer",
  );
  for (const [file, answer] of all) {
    await t.step(
      file,
      () => checkGoldenText(`schema/${file}`, join(DIR, file), stableJson(answer)),
    );
  }
  const present = [...Deno.readDirSync(DIR)].filter((e) => e.isFile).map((e) => e.name).sort();
  assertEquals(present, [...all.keys()].sort(), `${DIR} holds one golden per schema, nothing else`);
});
