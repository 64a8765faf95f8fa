/**
 * The repository map and task context over the real repository and over
 * temporary copies: a closed map, exact content, intents, budgets, and
 * refusals that open nothing.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertNotEquals } from "../support/assert.ts";
import { blake3 } from "../../src/base/mod.ts";
import { MANIFEST_PATH, parseManifest } from "../../src/docs/mod.ts";
import {
  INVERSE,
  repositoryMap,
  taskContext,
  type TaskContextRequest,
} from "../../src/repo/mod.ts";
import {
  ITEM_REASONS as REASONS,
  RELATION_KINDS,
  renderSchema,
  REPOSITORY_MAP_SCHEMA,
  type RepositoryMapAnswer as RepositoryMap,
  TASK_CONTEXT_SCHEMA,
  type TaskContextAnswer as TaskContext,
} from "../../src/contracts/mod.ts";
import { answerOf, refusalOf as refused } from "../support/outcome.ts";
import { runNazm } from "../support/cli.ts";
import { toolContext } from "../support/tool_context.ts";
import { HANDLERS } from "../../src/mcp/handlers.ts";
import repositoryMapTool from "../../src/mcp/tools/repository_map.ts";
import taskContextTool from "../../src/mcp/tools/task_context.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { recordingReader } from "../support/reader.ts";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const AREA = "definition:shapes/geometry.shapes::area";

function map(root: string): RepositoryMap {
  return answerOf(repositoryMap(root));
}

function context(root: string, request: TaskContextRequest): TaskContext {
  return answerOf(taskContext(root, request));
}

function copyTree(from: string, to: string) {
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    if (entry.isDirectory) copyTree(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile) Deno.copyFileSync(join(from, entry.name), join(to, entry.name));
  }
}

/** A temporary copy of the repository's manifest, documents and examples. */
function copyOfRepository(): string {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-repo-" });
  Deno.copyFileSync(join(repo, MANIFEST_PATH), join(dir, MANIFEST_PATH));
  copyTree(join(repo, "docs"), join(dir, "docs"));
  copyTree(join(repo, "examples"), join(dir, "examples"));
  return dir;
}

// One copy shared by the read-only tests below (each mutating test makes its own).
const shared = copyOfRepository();

Deno.test("repo map: closed — ids unique, every parent and relation target is an entity", () => {
  const answer = map(repo);
  const ids = new Set(answer.entities.map((e) => e.id));
  assertEquals(ids.size, answer.entities.length);
  for (const e of answer.entities) {
    assert(e.id.startsWith(`${e.kind}:`), e.id);
    if (e.parent !== null) assert(ids.has(e.parent), `${e.id} has a missing parent ${e.parent}`);
    for (const r of e.relations) assert(ids.has(r.to), `${e.id} ${r.kind} a missing ${r.to}`);
  }
  const parsed = parseManifest(Deno.readFileSync(join(repo, MANIFEST_PATH)));
  if (parsed.kind === "refusal") throw new Error(parsed.value.message);
  for (const d of parsed.value.documents) assert(ids.has(`document:${d.id}`));
  for (const t of parsed.value.targets) assert(ids.has(`target:${t.id}`));
  for (const p of parsed.value.mutation_profiles) assert(ids.has(`profile:${p.id}`));
  assertEquals(answer.compilations.map((c) => [c.root, c.status]), [
    ["compilation_root:shapes", "ok"],
    ["compilation_root:ledger", "ok"],
  ]);
  assert(ids.has("module:shapes/geometry.shapes"));
  assert(ids.has(AREA));
  assert(ids.has("section:architecture/the-tools/nazm-docs-index-and-nazm-docs-section"));
});

Deno.test("repo map: definitions carry their relations and the digest of their exact source", () => {
  const answer = map(shared);
  const area = answer.entities.find((e) => e.id === AREA)!;
  assertEquals(area.parent, "module:shapes/geometry.shapes");
  assertEquals(area.authority, "compiler");
  assert(
    area.relations.some((r) =>
      r.kind === "calls" && r.to === "definition:shapes/util.numbers::square"
    ),
  );
  assert(
    area.relations.some((r) =>
      r.kind === "types" && r.to === "definition:shapes/geometry.shapes::Shape"
    ),
  );
  const item = context(shared, { seeds: [AREA], state: answer.state }).items[0];
  assertEquals(area.digest, blake3(item.content.text));
  const main = answer.entities.find((e) => e.id === "module:shapes/main")!;
  assert(
    main.relations.some((r) => r.kind === "imports" && r.to === "module:shapes/geometry.shapes"),
  );
  assertEquals(main.digest, blake3(Deno.readFileSync(join(shared, "examples/shapes/main.nz"))));
});

Deno.test("repo context: the seed's exact source, neighbours by shape, sections by exact text", () => {
  const answer = map(shared);
  const result = context(shared, { seeds: [AREA], state: answer.state });
  assertEquals(result.intent, "edit");
  assertEquals(result.partial, false);
  const [seed, ...rest] = result.items;
  assertEquals([seed.id, seed.priority, seed.reason, seed.content.format], [
    AREA,
    "seed",
    "seed",
    "source",
  ]);
  const bytes = Deno.readFileSync(join(shared, "examples/shapes/geometry/shapes.nz"));
  assert(new TextDecoder().decode(bytes).includes(seed.content.text));
  assert(seed.content.text.startsWith("/// The area of a shape"));
  const byId = new Map(rest.map((i) => [i.id, i]));
  assertEquals(byId.get("definition:shapes/util.numbers::square")?.content, {
    format: "shape",
    text: "pub fn square(n: Int) -> Int",
  });
  assertEquals(byId.get("definition:shapes/geometry.shapes::total")?.reason, "called_by");
  assertEquals(byId.get("module:shapes/geometry.shapes")?.reason, "parent");
  for (const i of result.items) {
    assertEquals(i.bytes, new TextEncoder().encode(i.content.text).length);
  }

  const sectionId = "section:architecture/the-tools/nazm-docs-index-and-nazm-docs-section";
  const schema = context(shared, { seeds: ["schema:nazm.docs-index-1"], state: answer.state });
  const section = schema.items.find((i) => i.id === sectionId)!;
  assertEquals([section.reason, section.content.format], ["documented_by", "text"]);
  const file = Deno.readTextFileSync(join(shared, "docs/architecture.md"));
  assert(file.includes(section.content.text));
  assert(section.content.text.startsWith("### 7.34 nazm.docs_index and nazm.docs_section\n"));
});

Deno.test("repo context: intents narrow the step; edit is the widest", () => {
  const { state } = map(shared);
  const ids = (intent: "understand" | "edit" | "diagnose" | "test") =>
    new Set(context(shared, { seeds: [AREA], state, intent }).items.map((i) => i.id));
  const edit = ids("edit");
  for (const intent of ["understand", "diagnose", "test"] as const) {
    for (const id of ids(intent)) assert(edit.has(id), `${intent} has ${id}, edit does not`);
  }
  assert(
    !ids("understand").has("definition:shapes/geometry.shapes::total"),
    "understand leaves callers out",
  );
  assert(ids("test").has("definition:shapes/geometry.shapes::total"), "test keeps callers");
  const test = context(shared, { seeds: [AREA], state, intent: "test" });
  assertEquals(
    test.items.find((i) => i.id === "definition:shapes/geometry.shapes::total")?.priority,
    "required",
  );

  const profile = context(shared, { seeds: ["profile:new-diagnostic-code"], state });
  const reasons = new Set(profile.items.map((i) => i.reason));
  assert(reasons.has("changes") && reasons.has("checked_by"));
  assert(profile.items.some((i) => i.id === "document:diagnostics" && i.priority === "required"));
});

Deno.test("repo context: a budget cuts from the least important end and says so", () => {
  const { state } = map(shared);
  const full = context(shared, { seeds: [AREA], state });
  const two = context(shared, { seeds: [AREA], state, budget: { max_items: 2 } });
  assertEquals(two.items, full.items.slice(0, 2));
  assertEquals(two.partial, true);
  assertEquals(two.cut.map((c) => c.id), full.items.slice(2).map((i) => i.id));
  assert(two.cut.every((c) => c.limit === "max_items"));
  const seedBytes = full.items[0].bytes;
  const tight = context(shared, { seeds: [AREA], state, budget: { max_bytes: seedBytes } });
  assertEquals(tight.items.map((i) => i.id), [AREA]);
  assertEquals(tight.used, { items: 1, bytes: seedBytes });
  assert(tight.cut.every((c) => c.limit === "max_bytes"));
  const none = refused(
    taskContext(shared, { seeds: [AREA], state, budget: { max_bytes: seedBytes - 1 } }),
  );
  assertEquals(none.reason, "insufficient_budget");
  const roomy = context(shared, {
    seeds: [AREA],
    state,
    budget: { max_items: 1000, max_bytes: 1e9 },
  });
  assertEquals([roomy.partial, roomy.items], [false, full.items]);
});

Deno.test("repo context: paths and unknown ids are invalid_request; only the fixed inputs are read", () => {
  const { state } = map(shared);
  const inside = (path: string) => {
    const rel = relative(shared, path).replaceAll("\\", "/");
    return rel === MANIFEST_PATH || rel.startsWith("docs/") || rel.startsWith("examples/");
  };
  for (
    const seeds of [
      ["/etc/passwd"],
      ["../x.nz"],
      ["examples/shapes/main.nz"],
      ["definition:shapes/geometry.shapes::are"], // near miss
      ["module:shapes/../../etc/passwd"],
      [AREA, AREA],
      [],
      Array.from({ length: 9 }, (_, i) => `target:t${i}`),
    ]
  ) {
    const reader = recordingReader(shared);
    const result = refused(taskContext(shared, { seeds, state, readFile: reader.readFile }));
    assertEquals(
      [result.status, result.reason],
      ["refused", "invalid_request"],
      JSON.stringify(seeds),
    );
    for (const path of reader.read) assert(inside(path), `opened ${path} for ${seeds}`);
    if (!seeds.every((s) => /^[a-z_]+:/.test(s)) || seeds.length !== 1) {
      assertEquals(reader.read, [], `read files for ${JSON.stringify(seeds)}`);
    }
  }
  const malformed = refused(taskContext(shared, { seeds: [AREA], state: "nope" }));
  assertEquals(malformed.reason, "invalid_request");
});

Deno.test("repo: an edit anywhere in the inputs changes the state; the old state is stale", () => {
  const root = copyOfRepository();
  const before = map(root);
  const path = join(root, "examples/shapes/util/numbers.nz");
  Deno.writeTextFileSync(path, Deno.readTextFileSync(path) + "\n// a comment\n");
  const after = map(root);
  assertNotEquals(after.state, before.state);
  assertEquals(after.docs_state, before.docs_state);
  const stale = refused(taskContext(root, { seeds: [AREA], state: before.state }));
  assertEquals(stale.reason, "stale_state");
  // Only the edited module's digest moved.
  const digests = (m: RepositoryMap) => new Map(m.entities.map((e) => [e.id, e.digest]));
  const was = digests(before);
  const moved = after.entities.filter((e) => was.get(e.id) !== e.digest).map((e) => e.id);
  assertEquals(moved, ["module:shapes/util.numbers"]);

  Deno.writeTextFileSync(join(root, "docs/goals.md"), "# Goals\n\nFewer.\n");
  const docsEdited = map(root);
  assertNotEquals(docsEdited.docs_state, after.docs_state);
  assertNotEquals(docsEdited.state, after.state);
});

Deno.test("repo: a broken or missing compilation root is reported, never a crash", () => {
  const root = copyOfRepository();
  Deno.writeTextFileSync(
    join(root, "examples/shapes/util/numbers.nz"),
    "pub fn square(n: Int -> Int {",
  );
  Deno.removeSync(join(root, "examples/ledger"), { recursive: true });
  const answer = map(root);
  assertEquals(answer.compilations.map((c) => c.status), ["syntax_recovery", "root_unreadable"]);
  assert(answer.entities.some((e) => e.id === "module:shapes/util.numbers"));
  assert(!answer.entities.some((e) => e.kind === "definition"));
  const empty = Deno.makeTempDirSync();
  assertEquals(refused(repositoryMap(empty)).reason, "manifest_unavailable");
});

function validator(schema: typeof REPOSITORY_MAP_SCHEMA) {
  return new Ajv2020({ strict: true, allErrors: true }).compile(renderSchema(schema));
}

Deno.test("repo: answers and refusals are valid against their schemas (Ajv 2020)", () => {
  const validMap = validator(REPOSITORY_MAP_SCHEMA);
  const validContext = validator(TASK_CONTEXT_SCHEMA);
  const check = (validate: ReturnType<typeof validator>, value: unknown) =>
    assert(validate(value), JSON.stringify(validate.errors));
  const answer = map(shared);
  check(validMap, answer);
  check(validMap, repositoryMap(Deno.makeTempDirSync()).value);
  check(validContext, context(shared, { seeds: [AREA, "profile:new-tool"], state: answer.state }));
  check(
    validContext,
    context(shared, { seeds: [AREA], state: answer.state, budget: { max_items: 1 } }),
  );
  check(validContext, taskContext(shared, { seeds: ["/etc/passwd"], state: answer.state }).value);
  check(validContext, taskContext(shared, { seeds: [AREA], state: "0".repeat(64) }).value);
  // Every entity's retrieval works: the task context of the entity alone gives it back.
  for (const e of answer.entities.filter((_, i) => i % 17 === 0)) {
    if (e.retrieve.tool !== "nazm.task_context") continue;
    const args = e.retrieve.arguments as unknown as Omit<TaskContextRequest, "state">;
    const again = context(shared, { ...args, state: answer.state });
    assertEquals(again.items.map((i) => i.id), [e.id]);
  }
});

Deno.test("repo: the tools and the CLI answer exactly what the functions answer", async () => {
  const ctx = toolContext({
    root: join(shared, "examples/shapes/main.nz"),
    sourceRoot: shared,
    docsRoot: shared,
  });
  const direct = map(shared);
  assertEquals(await HANDLERS[repositoryMapTool.name](repositoryMapTool.input.parse({}), ctx), {
    kind: "answer",
    value: direct,
  });
  const cli = async (...args: string[]) => {
    const run = await runNazm("repo", ...args);
    return { status: run.status, json: run.status === 2 ? null : JSON.parse(run.out) };
  };
  assertEquals(await cli("map", "--docs", shared), { status: 0, json: direct });

  const request = {
    seeds: [AREA],
    state: direct.state,
    intent: "understand" as const,
    budget: { max_items: 3 },
  };
  const expected = context(shared, request);
  assertEquals(await HANDLERS[taskContextTool.name](taskContextTool.input.parse(request), ctx), {
    kind: "answer",
    value: expected,
  });
  const argv = [
    "context",
    AREA,
    "--state",
    direct.state,
    "--intent",
    "understand",
    "--max-items",
    "3",
  ];
  assertEquals(await cli(...argv, "--docs", shared), { status: 0, json: expected });
  const refusedByCli = await cli(
    "context",
    "/etc/passwd",
    "--state",
    direct.state,
    "--docs",
    shared,
  );
  assertEquals([refusedByCli.status, refusedByCli.json.reason], [1, "invalid_request"]);
  assertEquals((await cli("context", AREA, "--docs", shared)).status, 2);
  assertEquals((await cli("map", "--root", "/")).status, 2);
  // The command line checks its arguments with the tool's own input schema.
  const badIntent = await runNazm(
    "repo",
    "context",
    AREA,
    "--state",
    direct.state,
    "--intent",
    "x",
  );
  assertEquals(badIntent.status, 2);
  assert(badIntent.err.includes("intent"), badIntent.err);
  assertEquals((await cli("context", AREA, "--state", direct.state, "--max-items", "0")).status, 2);
  assert(
    !taskContextTool.input.safeParse({ seeds: [AREA], state: direct.state, path: "/" }).success,
  );
});

Deno.test("repo: a module that links outside the repository is not read", () => {
  const root = copyOfRepository();
  const outside = Deno.makeTempDirSync({ prefix: "nazm-outside-" });
  Deno.writeTextFileSync(join(outside, "numbers.nz"), "pub fn square(n: Int) -> Int { n * n }\n");
  Deno.removeSync(join(root, "examples/shapes/util/numbers.nz"));
  Deno.symlinkSync(join(outside, "numbers.nz"), join(root, "examples/shapes/util/numbers.nz"));
  const reader = recordingReader(root);
  const answer = answerOf(repositoryMap(root, { readFile: reader.readFile }));
  assert(!reader.read.includes(join(root, "examples/shapes/util/numbers.nz")));
  assert(!answer.entities.some((e) => e.id === "module:shapes/util.numbers"));
});

Deno.test("repo: the reasons are exactly seed, every relation, every inverse, parent and child", () => {
  assertEquals([...REASONS], [
    "seed",
    ...RELATION_KINDS,
    ...RELATION_KINDS.map((k) => INVERSE[k]),
    "parent",
    "child",
  ]);
});

Deno.test("repo: a definition reports its diagnostics' codes; diagnose brings their sections", () => {
  const root = copyOfRepository();
  const path = join(root, "examples/shapes/main.nz");
  const text = Deno.readTextFileSync(path);
  const broken = text.replace('if n > 100 { "large" } else { "small" }', "n");
  assertNotEquals(broken, text);
  Deno.writeTextFileSync(path, broken);
  const answer = map(root);
  assertEquals(answer.compilations[0].status, "ok");
  const describe = answer.entities.find((e) => e.id === "definition:shapes/main::describe")!;
  const reports = describe.relations.filter((r) => r.kind === "reports");
  assert(reports.length > 0, JSON.stringify(describe.relations));
  const result = context(root, {
    seeds: [describe.id],
    state: answer.state,
    intent: "diagnose",
  });
  const section = result.items.find((i) => i.id === reports[0].to)!;
  assertEquals([section.reason, section.priority, section.content.format], [
    "reports",
    "required",
    "text",
  ]);
  assert(/^#+ N\d{4}/.test(section.content.text), section.content.text.slice(0, 80));
});

Deno.test("repo: the committed schema files are what the zod definitions render", () => {
  for (const schema of [REPOSITORY_MAP_SCHEMA, TASK_CONTEXT_SCHEMA]) {
    const committed = JSON.parse(Deno.readTextFileSync(join(repo, "schema", schema.file)));
    assertEquals(committed, renderSchema(schema), `run deno task schemas: ${schema.file}`);
  }
  const answer = map(shared);
  assertValidAgainst("nazm.repository-map-1.json", answer);
  assertValidAgainst(
    "nazm.task-context-1.json",
    context(shared, { seeds: [AREA], state: answer.state, budget: { max_items: 2 } }),
  );
  assertValidAgainst(
    "nazm.task-context-1.json",
    taskContext(shared, { seeds: ["../x.nz"], state: answer.state }).value,
  );
});
