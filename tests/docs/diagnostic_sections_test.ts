/**
 * Each diagnostic names the docs section that explains its code: the id the
 * code table derives (`docsSectionOf`) is a section of the corpus as the
 * docs tools split it, headed by the code, whose text explains that code.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "../support/assert.ts";
import { answerOf } from "../support/outcome.ts";
import { CODE_GROUPS, docsSectionOf, REGISTRY } from "../../src/base/mod.ts";
import { docsIndex, docsSection, slug } from "../../src/docs/mod.ts";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

Deno.test("diagnostic sections: each group's id segment is its heading's slug", () => {
  for (const g of CODE_GROUPS) assertEquals(slug(g.heading), g.slug, g.heading);
  assertEquals(
    CODE_GROUPS.map((g) => g.group).sort(),
    [...new Set(REGISTRY.map((c) => c.group))].sort(),
  );
});

Deno.test("diagnostic sections: every code's id is a section of the corpus that explains it", () => {
  const index = answerOf(docsIndex(repo, { document: "diagnostics" }));
  const sections = new Map(index.documents[0].sections.map((s) => [s.id, s]));
  for (const c of REGISTRY) {
    const id = docsSectionOf(c.code);
    assert(id !== null, c.code);
    assertEquals(sections.get(id)?.title, c.code, `${id} is headed ${c.code}`);
    const section = answerOf(docsSection(repo, { id, state: index.state }));
    assert(section.text.includes(c.explanation), `${id} explains ${c.code}`);
    assert(section.text.includes(c.example), `${id} shows ${c.code}'s example`);
    assert(section.text.includes(c.repair), `${id} shows ${c.code}'s repair`);
  }
  assertEquals(docsSectionOf("N9999"), null);
});
