/**
 * Every published output schema. `deno task schemas` writes each to
 * schema/<file>; tests check the committed files against them.
 *
 * To add one: write `src/contracts/<schema>.ts` exporting a
 * `PublishedSchema` made by `defineOutputSchema` (see schema_kit.ts), add it
 * here, run `deno task schemas`.
 *
 * @module
 */
import type { PublishedSchema } from "./schema_kit.ts";
import { CONTEXT_SCHEMA } from "./context.ts";
import {
  COMMAND_SUMMARY_SCHEMA,
  DIAGNOSTIC_INDEX_SCHEMA,
  DIAGNOSTIC_SCHEMA,
} from "./diagnostics.ts";
import { DOCS_INDEX_SCHEMA } from "./docs_index.ts";
import { DOCS_SECTION_SCHEMA } from "./docs_section.ts";
import { PATCH_SCHEMA } from "./patch.ts";
import { REPOSITORY_MAP_SCHEMA } from "./repository_map.ts";
import { BUILD_SUMMARY_SCHEMA, TEST_SUMMARY_SCHEMA } from "./runs.ts";
import { DELTA_SCHEMA, SNAPSHOT_SCHEMA } from "./snapshot.ts";
import { TASK_CONTEXT_SCHEMA } from "./task_context.ts";

/** All published schemas. */
export const PUBLISHED_SCHEMAS: readonly PublishedSchema[] = [
  CONTEXT_SCHEMA,
  SNAPSHOT_SCHEMA,
  DELTA_SCHEMA,
  PATCH_SCHEMA,
  DIAGNOSTIC_INDEX_SCHEMA,
  DIAGNOSTIC_SCHEMA,
  COMMAND_SUMMARY_SCHEMA,
  DOCS_INDEX_SCHEMA,
  DOCS_SECTION_SCHEMA,
  REPOSITORY_MAP_SCHEMA,
  TASK_CONTEXT_SCHEMA,
  TEST_SUMMARY_SCHEMA,
  BUILD_SUMMARY_SCHEMA,
];
