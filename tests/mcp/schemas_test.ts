/**
 * The published schemas: the committed schema/ files are exactly what
 * `deno task schemas` writes, every tool names one of them, each is a
 * JSON Schema 2020-12 document with $id, title and a root "type": "object".
 */
import { assert, assertEquals } from "../support/assert.ts";
import { publishedSchema } from "../support/schema.ts";
import { REPO } from "../support/server.ts";
import { join } from "node:path";
import { PUBLISHED_SCHEMAS, schemaFileText, TOOLS } from "../../src/mcp/mod.ts";
import { Ajv2020 } from "ajv/dist/2020.js";
import { renderFiles, validatorsPath } from "../../scripts/gen_schemas.ts";

Deno.test("src/mcp/validators/ holds exactly what `deno task schemas` writes", () => {
  const files = renderFiles();
  for (const naming of ["dotted", "underscore"] as const) {
    const path = validatorsPath(naming);
    let committed: string;
    try {
      committed = Deno.readTextFileSync(join(REPO, path));
    } catch {
      throw new Error(`${path} is missing: run deno task schemas`);
    }
    assert(
      committed === files.get(path),
      `${path} differs from Ajv's code for the published schemas: run deno task schemas`,
    );
  }
});

Deno.test("schema/ holds exactly what `deno task schemas` writes", () => {
  for (const schema of PUBLISHED_SCHEMAS) {
    let committed: string;
    try {
      committed = Deno.readTextFileSync(join(REPO, "schema", schema.file));
    } catch {
      throw new Error(
        `schema/${schema.file} is missing: run deno task schemas`,
      );
    }
    assert(
      committed === schemaFileText(schema),
      `schema/${schema.file} differs from its zod definition: run deno task schemas`,
    );
  }
});

Deno.test("every tool's output schema is a published file", () => {
  const files = new Set(PUBLISHED_SCHEMAS.map((schema) => schema.file));
  for (const tool of TOOLS) {
    assert(files.has(tool.outputSchema), `${tool.name}: ${tool.outputSchema}`);
  }
  assertEquals(
    new Set(TOOLS.map((tool) => tool.name)).size,
    TOOLS.length,
    "tool names are unique",
  );
});

Deno.test("each published schema is 2020-12 with $id, title, root object, and compiles strictly", () => {
  const ajv = new Ajv2020({ strict: true });
  for (const schema of PUBLISHED_SCHEMAS) {
    const document = publishedSchema(schema.file);
    assertEquals(
      document.$schema,
      "https://json-schema.org/draft/2020-12/schema",
    );
    assertEquals(
      document.$id,
      `urn:nazm:schema:${schema.file.replace(/\.json$/, "")}`,
    );
    assertEquals(document.type, "object");
    assert(typeof document.title === "string" && document.title.length > 0);
    ajv.compile(document);
  }
});

Deno.test("every tool's input is strict and refuses an unknown argument", () => {
  for (const tool of TOOLS) {
    const parsed = tool.input.safeParse({ __unknown__: 1 });
    assert(!parsed.success, `${tool.name} accepts an unknown argument`);
  }
});
