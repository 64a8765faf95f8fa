/**
 * nazm.repository-map/1: every entity of the Nazm repository with a durable
 * identity, and the repository state (docs/architecture.md §7.35).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import { Compiler, Digest } from "./common.ts";

/**
 * The kinds of entity the repository map holds; an entity's map id is
 * `<kind>:<local id>`. `module`, `definition` and `section` are derived (from
 * the compilation roots and the documents), never declared in the manifest.
 */
export const ENTITY_KINDS = [
  "package",
  "target",
  "source_root",
  "compilation_root",
  "module",
  "definition",
  "document",
  "section",
  "schema",
  "profile",
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** The kinds of entity, in the order the map lists them: the manifest's own list. */
export const MAP_KINDS = ENTITY_KINDS;
export type MapKind = EntityKind;

/**
 * Structural relations, each pointing from the entity that states it. The
 * inverse of each is implied (task context follows both ways).
 */
export const RELATION_KINDS = [
  "depends_on", // source root → source root it may import
  "runs", // target → source root holding its entry
  "imports", // module → module
  "calls", // definition → function it calls
  "uses", // definition → definition it refers to without calling
  "types", // definition → record or enum named in a type position
  "reports", // definition → the diagnostics document's section for a code reported inside it
  "documented_by", // schema → the architecture section stating its tool's contract
  "generated_by", // schema → the target that writes it
  "changes", // profile → entity that changes with it
  "checked_by", // profile → target that must pass
] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

export const MapKind = z.enum(MAP_KINDS);

export const EntityAuthority = z.enum([
  "normative",
  "descriptive",
  "status",
  "planning",
  "aspiration",
  "compiler",
  "manifest",
]).describe(
  "a document's authority (its sections share it); normative for a published schema; compiler for modules and definitions; manifest for what the manifest declares",
);

export const RelationKind = z.enum(RELATION_KINDS);

export const Retrieve = z.strictObject({
  tool: z.enum(["nazm.docs_index", "nazm.docs_section", "nazm.task_context"]),
  arguments: z.record(z.string(), z.unknown()),
  state: z.enum(["repository", "docs"]).nullable().describe(
    "add `state`: the map's state (repository), its docs_state (docs), or nothing (null)",
  ),
}).describe("how to get the entity's content again");

export const MapEntity = z.strictObject({
  id: z.string().describe("'<kind>:<local id>'; the seeds nazm.task_context takes"),
  kind: MapKind,
  name: z.string(),
  authority: EntityAuthority,
  parent: z.string().nullable(),
  path: z.string().nullable().describe("the file or folder, relative to the repository"),
  digest: Digest.nullable().describe(
    "BLAKE3 of its bytes: a file's, a section's text, a declaration's source",
  ),
  relations: z.array(z.strictObject({ kind: RelationKind, to: z.string() })),
  retrieve: Retrieve,
});

export const RepositoryMapAnswer = z.strictObject({
  schema: z.literal("nazm.repository-map/1"),
  compiler: Compiler,
  state: Digest.describe("the repository state: pass it to nazm.task_context"),
  docs_state: Digest.describe("the documentation state: pass it to nazm.docs_section"),
  compilations: z.array(z.strictObject({
    root: z.string(),
    status: z.enum(["ok", "syntax_recovery", "root_unreadable"]),
    files: z.int().min(0),
    diagnostics: z.int().min(0),
  })),
  entities: z.array(MapEntity),
});

export const REPOSITORY_MAP_REASONS = ["manifest_unavailable", "manifest_invalid"] as const;

export const RepositoryMapRefusal = refusalSchema(REPOSITORY_MAP_REASONS);

/** The published schema/nazm.repository-map-1.json. */
export const REPOSITORY_MAP_SCHEMA = defineOutputSchema({
  file: "nazm.repository-map-1.json",
  title: "nazm.repository-map/1",
  description:
    "The Nazm repository's context map: every entity with a durable identity — packages, targets, source roots, compilation roots, modules, definitions, documents, sections, schemas, mutation profiles — with its authority, parent, relations and how to retrieve it, and the repository state; or a refusal.",
  answer: RepositoryMapAnswer,
  refusal: RepositoryMapRefusal,
});

/** The arguments of nazm.repository_map. */
export const RepositoryMapInput = z.strictObject({});

export type RepositoryMapAnswer = Frozen<z.infer<typeof RepositoryMapAnswer>>;
export type RepositoryMapReason = (typeof REPOSITORY_MAP_REASONS)[number];
export type MapEntity = Frozen<z.infer<typeof MapEntity>>;
export type Retrieve = Frozen<z.infer<typeof Retrieve>>;
export type EntityAuthority = Frozen<z.infer<typeof EntityAuthority>>;
