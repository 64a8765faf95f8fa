/**
 * How a published output schema is declared: each file
 * `src/contracts/<schema>.ts` exports one {@link PublishedSchema} built with
 * {@link defineOutputSchema}, and published.ts lists it.
 * `deno task schemas` (scripts/gen_schemas.ts) renders each into
 * `schema/<file>` with {@link renderSchema}; a test fails when a committed
 * file differs from the rendering.
 *
 * The rendered schema accepts the answer or the refusal, so that a refusal's
 * structured content (sent with `isError: true`) is valid against the same
 * schema a client validates answers with.
 *
 * @module
 */
import { z } from "zod";

/** The JSON Schema dialect every published file declares. */
export const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The prefix of every published schema's `$id`: a URN, stable and not a fetchable place. */
export const SCHEMA_ID_PREFIX = "urn:nazm:schema:";

/** One published output schema. */
export interface PublishedSchema {
  /** The file under schema/, e.g. `nazm.docs-index-1.json` (for `nazm.docs-index/1`). */
  readonly file: string;
  /** The schema's title. */
  readonly title: string;
  /** One or two sentences: what the object is. */
  readonly description: string;
  /** The answer: a zod object (strict where the seed says no other field exists). */
  // deno-lint-ignore no-explicit-any
  readonly answer: z.ZodObject<any>;
  /** The refusal, from {@link refusalSchema}; null for a schema no tool refuses with. */
  // deno-lint-ignore no-explicit-any
  readonly refusal: z.ZodObject<any> | null;
}

/** Declares a published output schema. */
export function defineOutputSchema(schema: PublishedSchema): PublishedSchema {
  if (!/^nazm\.[a-z0-9-]+-[0-9]+\.json$/.test(schema.file)) {
    throw new Error(
      `Schema file name ${schema.file} is not of the form nazm.<name>-<version>.json`,
    );
  }
  return schema;
}

/**
 * The refusal shape shared by every tool: `{ status, reason, message }` with
 * the tool's closed list of reason codes, plus fields that identify the request.
 */
export function refusalSchema<
  const Reasons extends readonly [string, ...string[]],
>(
  reasons: Reasons,
  extra: z.ZodRawShape = {},
) {
  return z.strictObject({
    status: z.enum(["refused", "unavailable"]),
    reason: z.enum(reasons),
    message: z.string(),
    ...extra,
  });
}

/**
 * The JSON Schema 2020-12 document published for a schema: `$schema`, `$id`,
 * `title`, `description`, a root `"type": "object"`, and `anyOf` the answer
 * and the refusal. Deterministic: the same definition renders the same bytes.
 */
export function renderSchema(schema: PublishedSchema): Record<string, unknown> {
  const answer = toJson(schema.answer);
  const branches = schema.refusal === null ? [answer] : [answer, toJson(schema.refusal)];
  const defs: Record<string, unknown> = {};
  for (const branch of branches) {
    const own = branch.$defs as Record<string, unknown> | undefined;
    if (own) Object.assign(defs, own);
    delete branch.$defs;
    delete branch.$schema;
  }
  const document: Record<string, unknown> = {
    $schema: SCHEMA_DIALECT,
    $id: SCHEMA_ID_PREFIX + schema.file.replace(/\.json$/, ""),
    title: schema.title,
    description: schema.description,
    type: "object",
  };
  if (branches.length === 1) Object.assign(document, withoutType(branches[0]));
  else document.anyOf = branches;
  if (Object.keys(defs).length > 0) document.$defs = defs;
  return document;
}

/** The bytes of a published schema file: two-space JSON and a final newline. */
export function schemaFileText(schema: PublishedSchema): string {
  return JSON.stringify(renderSchema(schema), null, 2) + "\n";
}

function toJson(type: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(type, {
    target: "draft-2020-12",
    io: "output",
    unrepresentable: "throw",
    reused: "inline",
  }) as Record<string, unknown>;
}

function withoutType(branch: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, ...rest } = branch;
  return rest;
}
