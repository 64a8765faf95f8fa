/**
 * The contracts layer: every tool's arguments, answer and closed list of
 * refusal reasons, declared once as zod, with the TypeScript types derived
 * from them (`z.infer`); the one `Outcome` every fact, documentation and
 * repository function returns; and the published schemas rendered from the
 * same declarations. See README.md.
 *
 * @module
 */
export * from "./plain.ts";
export * from "./issues.ts";
export * from "./schema_kit.ts";
export * from "./common.ts";
export * from "./context.ts";
export * from "./snapshot.ts";
export * from "./patch.ts";
export * from "./diagnostics.ts";
export * from "./docs_index.ts";
export * from "./docs_section.ts";
export * from "./repository_map.ts";
export * from "./task_context.ts";
export * from "./runs.ts";
export * from "./published.ts";
