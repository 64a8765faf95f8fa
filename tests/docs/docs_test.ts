/**
 * docsIndex and docsSection over the real corpus and over temporary copies:
 * exact bytes, digests that move only where text moved, refusals that open
 * nothing, answers valid against the published schemas.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertNotEquals } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { recordingReader } from "../support/reader.ts";
import { docsIndex, docsSection, MANIFEST_PATH, parseManifest } from "../../src/docs/mod.ts";
import { blake3 } from "../../src/base/mod.ts";
import {
  DOCS_INDEX_SCHEMA,
  DOCS_SECTION_SCHEMA,
  type DocsIndexAnswer as DocsIndex,
  type DocsSectionAnswer as DocsSection,
  renderSchema,
} from "../../src/contracts/mod.ts";
import { answerOf, refusalOf as refused } from "../support/outcome.ts";
import { runNazm } from "../support/cli.ts";
import { toolContext } from "../support/tool_context.ts";
import docsIndexTool from "../../src/mcp/tools/docs_index.ts";
import docsSectionTool from "../../src/mcp/tools/docs_section.ts";
import { HANDLERS } from "../../src/mcp/handlers.ts";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const decoder = new TextDecoder();

function index(root: string, document?: string): DocsIndex {
  return answerOf(docsIndex(root, document === undefined ? {} : { document }));
}

function section(root: string, id: string, state: string): DocsSection {
  return answerOf(docsSection(root, { id, state }));
}

/** A temporary docs repository: the real manifest, and the given documents. */
function tempCorpus(documents: Record<string, string>): string {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-docs-" });
  Deno.copyFileSync(join(repo, MANIFEST_PATH), join(dir, MANIFEST_PATH));
  Deno.mkdirSync(join(dir, "docs"));
  for (const [path, text] of Object.entries(documents)) {
    Deno.writeTextFileSync(join(dir, path), text);
  }
  return dir;
}

/** A temporary copy of the real repository's manifest and every document it names that exists. */
function copyOfRepository(): string {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-docs-" });
  Deno.copyFileSync(join(repo, MANIFEST_PATH), join(dir, MANIFEST_PATH));
  Deno.mkdirSync(join(dir, "docs"));
  const parsed = parseManifest(Deno.readFileSync(join(repo, MANIFEST_PATH)));
  if (parsed.kind === "refusal") throw new Error(parsed.value.message);
  for (const d of parsed.value.documents) {
    try {
      Deno.copyFileSync(join(repo, d.path), join(dir, d.path));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return dir;
}

const SPEC = [
  "# The Nazm language specification",
  "",
  "Intro.",
  "",
  "## 1. Lexical structure",
  "",
  "Source is UTF-8 — “quotes” and ü count as one character each.",
  "",
  "### 1.1 Comments",
  "",
  "`//` to the end of the line.",
  "",
  "```nazm",
  "# not a heading: inside a fence",
  "```",
  "",
  "### 1.2 Literals",
  "",
  "Integers and strings.",
  "",
  "## 2. Types",
  "",
  "Int, Float.",
  "",
].join("\n");

const GOALS =
  "# Goals\n\nA language small enough to hold in one head.\n\n## Tooling\n\nExact facts.\n";

Deno.test("docs: the manifest at the repository root is valid and names every corpus document", () => {
  const parsed = parseManifest(Deno.readFileSync(join(repo, MANIFEST_PATH)));
  if (parsed.kind === "refusal") throw new Error(parsed.value.message);
  const authority = Object.fromEntries(parsed.value.documents.map((d) => [d.id, d.authority]));
  assertEquals(authority.specification, "normative");
  assertEquals(authority.grammar, "normative");
  assertEquals(authority.architecture, "descriptive");
  assertEquals(authority.diagnostics, "descriptive");
  assertEquals(authority.capabilities, "status");
  assertEquals(authority.roadmap, "planning");
  assertEquals(authority.goals, "aspiration");
});

Deno.test("docs: the manifest's targets are exactly deno.json's tasks, plus literal commands", () => {
  const parsed = parseManifest(Deno.readFileSync(join(repo, MANIFEST_PATH)));
  if (parsed.kind === "refusal") throw new Error(parsed.value.message);
  const config = JSON.parse(Deno.readTextFileSync(join(repo, "deno.json")));
  const tasks = parsed.value.targets.flatMap((t) => t.task === undefined ? [] : [t.task]);
  assertEquals(tasks.sort(), Object.keys(config.tasks).sort());
  const roots = parsed.value.compilation_roots.map((c) => c.path);
  assertEquals(roots, ["examples/shapes/main.nz", "examples/ledger/main.nz"]);
});

Deno.test("docs: every section of the real corpus reads back as the exact slice of its file", () => {
  const root = repo;
  assertEquals(resolve(root), repo);
  const answer = index(root);
  let checked = 0;
  for (const document of answer.documents) {
    if (document.availability !== "present") continue;
    const bytes = Deno.readFileSync(join(repo, document.path));
    assertEquals(document.digest, blake3(bytes));
    const pieces: Uint8Array[] = [];
    for (const entry of document.sections) {
      const got = section(root, entry.id, answer.state);
      const slice = bytes.subarray(got.place.start.offset, got.place.end.offset);
      assertEquals(new TextEncoder().encode(got.text), slice, entry.id);
      assertEquals(got.digest, blake3(slice));
      assertEquals(got.digest, entry.digest);
      assertEquals(got.authority, document.authority);
      assertEquals(got.document, document.id);
      assertEquals(slice.length, entry.bytes);
      pieces.push(slice);
      checked++;
    }
    // Section texts, in order, are the whole file.
    assertEquals(decoder.decode(concat(pieces)), decoder.decode(bytes), document.id);
  }
  assert(checked > 0, "no section was checked");
});

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

Deno.test("docs: a section's text is its own bytes up to its first subsection, with its place", () => {
  const root = tempCorpus({ "docs/specification.md": SPEC, "docs/goals.md": GOALS });
  const answer = index(root, "specification");
  assertEquals(answer.documents.length, 1);
  assertEquals(
    answer.documents[0].sections.map((s) => [s.id, s.parent, s.level]),
    [
      ["specification", null, 1],
      ["specification/lexical-structure", "specification", 2],
      ["specification/lexical-structure/comments", "specification/lexical-structure", 3],
      ["specification/lexical-structure/literals", "specification/lexical-structure", 3],
      ["specification/types", "specification", 2],
    ],
  );
  const lexical = section(root, "specification/lexical-structure", answer.state);
  assertEquals(
    lexical.text,
    "## 1. Lexical structure\n\nSource is UTF-8 — “quotes” and ü count as one character each.\n\n",
  );
  assertEquals(lexical.place.start, { offset: 43, line: 5, column: 1 });
  assertEquals(lexical.place.end.line, 9);
  const comments = section(root, "specification/lexical-structure/comments", answer.state);
  assert(comments.text.includes("# not a heading: inside a fence"));
  assertEquals(comments.authority, "normative");
  const goal = section(root, "goals/tooling", answer.state);
  assertEquals(goal.authority, "aspiration");
  assertEquals(goal.text, "## Tooling\n\nExact facts.\n");
});

Deno.test("docs: editing one section's body changes only its digest, its document's and the state", () => {
  const root = tempCorpus({ "docs/specification.md": SPEC, "docs/goals.md": GOALS });
  const before = index(root);
  const edited = SPEC.replace("Integers and strings.", "Integers, floats and strings.\n\nMore.");
  Deno.writeTextFileSync(join(root, "docs/specification.md"), edited);
  const after = index(root);
  assertNotEquals(after.state, before.state);
  const digests = (a: DocsIndex) =>
    Object.fromEntries(a.documents.flatMap((d) => d.sections.map((s) => [s.id, s.digest])));
  const was = digests(before);
  const now = digests(after);
  assertEquals(Object.keys(now), Object.keys(was), "ids survive a body edit");
  const changed = Object.keys(now).filter((id) => now[id] !== was[id]);
  assertEquals(changed, ["specification/lexical-structure/literals"]);
  const docDigest = (a: DocsIndex, id: string) => a.documents.find((d) => d.id === id)?.digest;
  assertNotEquals(docDigest(after, "specification"), docDigest(before, "specification"));
  assertEquals(docDigest(after, "goals"), docDigest(before, "goals"));
  // The old state is now stale; the new one answers.
  const stale = refused(docsSection(root, { id: "specification/types", state: before.state }));
  assertEquals([stale.status, stale.reason], ["refused", "stale_state"]);
  assertEquals(
    section(root, "specification/types", after.state).text,
    "## 2. Types\n\nInt, Float.\n",
  );
});

Deno.test("docs: editing the same document in the real corpus copy moves only that section", () => {
  const root = copyOfRepository();
  const before = index(root);
  const document = before.documents.find((d) =>
    d.availability === "present" && d.sections.length > 2
  );
  if (document === undefined) return; // nothing to edit yet
  const target = document.sections[2];
  const path = join(root, document.path);
  const bytes = Deno.readFileSync(path);
  const got = section(root, target.id, before.state);
  const end = got.place.end.offset;
  // Insert a line at the end of the section's own text (before the next heading).
  const insert = new TextEncoder().encode("\nAn added sentence.\n");
  Deno.writeFileSync(path, concat([bytes.subarray(0, end), insert, bytes.subarray(end)]));
  const after = index(root);
  const changed = after.documents.flatMap((d) =>
    d.sections.filter((s) =>
      before.documents.flatMap((b) => b.sections).find((b) => b.id === s.id)?.digest !== s.digest
    )
      .map((s) => s.id)
  );
  assertEquals(changed, [target.id]);
  assertNotEquals(after.state, before.state);
});

Deno.test("docs: path-like and near-miss ids are not_found, and only manifest files are opened", () => {
  const root = tempCorpus({ "docs/specification.md": SPEC, "docs/goals.md": GOALS });
  const { state } = index(root);
  const parsed = parseManifest(Deno.readFileSync(join(root, MANIFEST_PATH)));
  if (parsed.kind === "refusal") throw new Error(parsed.value.message);
  const allowed = new Set([
    join(root, MANIFEST_PATH),
    ...parsed.value.documents.map((d) => join(root, d.path)),
  ]);
  for (
    const id of [
      "../README.md",
      "/etc/passwd",
      "specification/../../x",
      "specification/lexical-structur", // near miss
      "specification/lexical-structure/",
      "Specification/lexical-structure",
      "docs/specification.md",
      "specification\u0000",
      "",
      "goals/../specification",
    ]
  ) {
    const reader = recordingReader(root);
    const result = refused(docsSection(root, { id, state, readFile: reader.readFile }));
    assertEquals([result.status, result.reason, result.id], ["refused", "not_found", id]);
    for (const path of reader.read) assert(allowed.has(path), `opened ${path} for ${id}`);
  }
  // The same holds for a document id given to the index.
  for (const document of ["../README", "/etc/passwd", "specificatio", "docs/goals.md"]) {
    const reader = recordingReader(root);
    const result = refused(docsIndex(root, { document, readFile: reader.readFile }));
    assertEquals([result.reason, result.document], ["not_found", document]);
    for (const path of reader.read) assert(allowed.has(path), `opened ${path} for ${document}`);
  }
});

Deno.test("docs: a malformed state is invalid_request, and nothing is read for it", () => {
  const root = tempCorpus({ "docs/specification.md": SPEC });
  for (const state of ["", "abc", "/etc/passwd", "A".repeat(64)]) {
    const reader = recordingReader(root);
    const result = refused(
      docsSection(root, { id: "specification", state, readFile: reader.readFile }),
    );
    assertEquals(result.reason, "invalid_request");
    assertEquals(reader.read, []);
  }
  const wellFormed = refused(docsSection(root, { id: "specification", state: "0".repeat(64) }));
  assertEquals(wellFormed.reason, "stale_state");
});

Deno.test("docs: missing documents are listed as missing; a missing manifest is unavailable", () => {
  const root = tempCorpus({ "docs/goals.md": GOALS });
  const answer = index(root);
  const spec = answer.documents.find((d) => d.id === "specification");
  assertEquals(spec && [spec.availability, spec.digest, spec.sections], ["missing", null, []]);
  const gone = refused(docsSection(root, { id: "specification", state: answer.state }));
  assertEquals(gone.reason, "not_found");
  // A document appearing changes the state.
  Deno.writeTextFileSync(join(root, "docs/specification.md"), SPEC);
  assertNotEquals(index(root).state, answer.state);

  const empty = Deno.makeTempDirSync({ prefix: "nazm-docs-" });
  const unavailable = refused(docsIndex(empty));
  assertEquals([unavailable.status, unavailable.reason], ["unavailable", "manifest_unavailable"]);
  Deno.writeTextFileSync(join(empty, MANIFEST_PATH), '{"schema":"nazm.repository-manifest/1"}');
  const invalid = refused(docsIndex(empty));
  assertEquals(invalid.reason, "manifest_invalid");
  const invalidToo = refused(docsSection(empty, { id: "x", state: "0".repeat(64) }));
  assertEquals(invalidToo.reason, "manifest_invalid");
});

Deno.test("docs: a manifest whose paths leave the repository is invalid, and they are not opened", () => {
  const root = tempCorpus({});
  const manifest = JSON.parse(Deno.readTextFileSync(join(root, MANIFEST_PATH)));
  for (
    const path of ["../outside.md", "/etc/passwd.md", "docs/../../x.md", "docs\\x.md", "C:/x.md"]
  ) {
    manifest.documents[0].path = path;
    Deno.writeTextFileSync(join(root, MANIFEST_PATH), JSON.stringify(manifest));
    const reader = recordingReader(root);
    const result = refused(docsIndex(root, { readFile: reader.readFile }));
    assertEquals(result.reason, "manifest_invalid");
    assertEquals(reader.read, [join(root, MANIFEST_PATH)]);
  }
});

Deno.test("docs: every call re-reads the disk", () => {
  const root = tempCorpus({ "docs/goals.md": GOALS });
  const first = index(root, "goals");
  Deno.writeTextFileSync(join(root, "docs/goals.md"), GOALS + "\n## More\n");
  const second = index(root, "goals");
  assertEquals(second.documents[0].sections.map((s) => s.id), [
    "goals",
    "goals/tooling",
    "goals/more",
  ]);
  assertNotEquals(first.state, second.state);
});

function validator(schema: typeof DOCS_INDEX_SCHEMA) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  return ajv.compile(renderSchema(schema));
}

Deno.test("docs: the committed schema files are what the zod definitions render", () => {
  for (const schema of [DOCS_INDEX_SCHEMA, DOCS_SECTION_SCHEMA]) {
    const committed = JSON.parse(Deno.readTextFileSync(join(repo, "schema", schema.file)));
    assertEquals(committed, renderSchema(schema), `run deno task schemas: ${schema.file}`);
  }
});

Deno.test("docs: answers and refusals are valid against the published schemas (Ajv 2020)", () => {
  const validIndex = validator(DOCS_INDEX_SCHEMA);
  const validSection = validator(DOCS_SECTION_SCHEMA);
  const check = (validate: ReturnType<typeof validator>, value: unknown) => {
    assert(validate(value), JSON.stringify(validate.errors));
    // And against the committed file in schema/, as every tool answer is checked.
    const file = validate === validIndex ? "nazm.docs-index-1.json" : "nazm.docs-section-1.json";
    assertValidAgainst(file, value);
  };
  const root = tempCorpus({ "docs/specification.md": SPEC, "docs/goals.md": GOALS });
  const answer = index(root);
  check(validIndex, answer);
  check(validIndex, index(repo));
  check(validIndex, docsIndex(root, { document: "nope" }).value);
  check(validIndex, docsIndex(Deno.makeTempDirSync()).value);
  check(validSection, section(root, "specification/types", answer.state));
  check(validSection, docsSection(root, { id: "/etc/passwd", state: answer.state }).value);
  check(validSection, docsSection(root, { id: "goals", state: "0".repeat(64) }).value);
  check(validSection, docsSection(root, { id: "goals", state: "nope" }).value);
  // And the schemas are strict: an extra field is not an answer.
  assert(!validIndex({ ...answer, extra: 1 }));
});

Deno.test("docs: the tools and the CLI answer exactly what the functions answer", async () => {
  const root = tempCorpus({ "docs/specification.md": SPEC, "docs/goals.md": GOALS });
  const context = toolContext({ root: join(root, "main.nz"), sourceRoot: root, docsRoot: root });
  const direct = index(root);
  const viaTool = await HANDLERS[docsIndexTool.name](docsIndexTool.input.parse({}), context);
  assertEquals(viaTool, { kind: "answer", value: direct });

  const cli = async (...args: string[]) => {
    const run = await runNazm("docs", ...args);
    return { status: run.status, json: run.status === 2 ? null : JSON.parse(run.out) };
  };
  assertEquals(await cli("index", "--docs", root), { status: 0, json: direct });
  assertEquals(await cli("index", `--docs=${root}`, "--document", "goals"), {
    status: 0,
    json: index(root, "goals"),
  });

  const id = "specification/lexical-structure/literals";
  const viaSectionTool = await HANDLERS[docsSectionTool.name](
    docsSectionTool.input.parse({ id, state: direct.state }),
    context,
  );
  assertEquals(viaSectionTool, { kind: "answer", value: section(root, id, direct.state) });
  assertEquals(await cli("section", id, "--state", direct.state, "--docs", root), {
    status: 0,
    json: section(root, id, direct.state),
  });

  const refusedTool = await HANDLERS[docsSectionTool.name](
    { id: "../x", state: direct.state },
    context,
  );
  assertEquals(refusedTool.kind, "refusal");
  assertEquals(await cli("section", "../x", "--state", direct.state, "--docs", root), {
    status: 1,
    json: refusedTool.value,
  });

  assertEquals((await cli("section", id, "--docs", root)).status, 2);
  assertEquals((await cli("frobnicate")).status, 2);
  assertEquals((await cli("index", "--path", "/etc")).status, 2);
  // The command line checks its arguments with the tool's own input schema.
  assertEquals((await cli("index", "--document", "x".repeat(65), "--docs", root)).status, 2);
  // Strict inputs: an unknown argument is not accepted.
  assert(
    !docsSectionTool.input.safeParse({ id, state: direct.state, path: "/etc/passwd" }).success,
  );
  assert(!docsIndexTool.input.safeParse({ document: "goals", docs: "/" }).success);
});

Deno.test("docs: a document or manifest that links outside the repository is never read", () => {
  const outside = Deno.makeTempDirSync({ prefix: "nazm-outside-" });
  Deno.writeTextFileSync(join(outside, "secret.md"), "# Secret\n\n## Key\n");
  const root = tempCorpus({ "docs/goals.md": GOALS });
  Deno.symlinkSync(join(outside, "secret.md"), join(root, "docs/specification.md"));
  // A link that stays inside the repository is followed.
  Deno.symlinkSync(join(root, "docs/goals.md"), join(root, "docs/roadmap.md"));
  const reader = recordingReader(root);
  const answer = answerOf(docsIndex(root, { readFile: reader.readFile }));
  const availability = Object.fromEntries(answer.documents.map((d) => [d.id, d.availability]));
  assertEquals([availability.specification, availability.roadmap], ["link_outside", "present"]);
  assert(!reader.read.includes(join(root, "docs/specification.md")));

  const linked = Deno.makeTempDirSync({ prefix: "nazm-docs-" });
  Deno.copyFileSync(join(repo, MANIFEST_PATH), join(outside, MANIFEST_PATH));
  Deno.symlinkSync(join(outside, MANIFEST_PATH), join(linked, MANIFEST_PATH));
  const refusal = refused(docsIndex(linked));
  assertEquals(refusal.reason, "manifest_unavailable");
});

Deno.test("docs: a byte order mark stays in the text, and the heading after it is still one", () => {
  const root = tempCorpus({ "docs/goals.md": "\uFEFF# Goals\n\nWith a BOM.\n\n## One\n" });
  const answer = index(root, "goals");
  assertEquals(answer.documents[0].sections.map((s) => [s.id, s.title]), [
    ["goals", "Goals"],
    ["goals/one", "One"],
  ]);
  const bytes = Deno.readFileSync(join(root, "docs/goals.md"));
  const got = section(root, "goals", answer.state);
  assertEquals(new TextEncoder().encode(got.text), bytes.subarray(0, got.place.end.offset));
  assertEquals(got.digest, blake3(new TextEncoder().encode(got.text)));
});

Deno.test("docs: what the manifest names exists, and every published schema is in it", async () => {
  const parsed = parseManifest(Deno.readFileSync(join(repo, MANIFEST_PATH)));
  if (parsed.kind === "refusal") throw new Error(parsed.value.message);
  const m = parsed.value;
  const exists = (path: string) => {
    try {
      Deno.statSync(join(repo, path));
      return true;
    } catch {
      return false;
    }
  };
  for (
    const path of [
      ...m.documents.map((d) => d.path),
      ...m.packages.map((p) => p.manifest),
      ...m.source_roots.map((s) => s.path),
      ...m.compilation_roots.map((c) => c.path),
      ...m.targets.flatMap((t) => t.entry === undefined ? [] : [t.entry]),
    ]
  ) {
    assert(exists(path), `nazm-repo.json names ${path}, which does not exist`);
  }
  const { PUBLISHED_SCHEMAS } = await import("../../src/contracts/mod.ts");
  const named = new Set(m.schemas.map((s) => s.path));
  for (const schema of PUBLISHED_SCHEMAS) {
    assert(named.has(`schema/${schema.file}`), `schema/${schema.file} is not in nazm-repo.json`);
  }
});
