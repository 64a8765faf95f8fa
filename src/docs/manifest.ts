/**
 * The repository manifest, `nazm-repo.json` at the root of the docs
 * repository: the one file that names what the documentation and repository
 * tools may read, and what the repository is made of.
 *
 * The documentation tools use its `documents`; the repository map and
 * task context use all of it. It is validated whole at every call, so
 * one definition of "a valid manifest" serves both.
 *
 * @module
 */
import { z } from "zod";
import { answer, type Outcome, refuse } from "../contracts/mod.ts";

/** Where the manifest lives, relative to the docs repository. Fixed. */
export const MANIFEST_PATH = "nazm-repo.json";

/** The manifest's own format tag. */
export const MANIFEST_SCHEMA = "nazm.repository-manifest/1";

/** How far a document may be trusted, from rule to wish. */
export const AUTHORITIES = [
  "normative",
  "descriptive",
  "status",
  "planning",
  "aspiration",
] as const;
export type Authority = typeof AUTHORITIES[number];

/**
 * A path inside the repository: relative, `/`-separated, no `.` or `..`
 * segment, no empty segment, no backslash, colon or control character. Such
 * a path cannot leave the repository by its spelling.
 */
const RepoPath = z.string().min(1).max(512).refine(
  (path) =>
    // deno-lint-ignore no-control-regex -- control characters are exactly what is refused
    !/[\\:\u0000-\u001f\u007f]/.test(path) &&
    path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== ".."),
  { message: "must be a relative path inside the repository, '/'-separated, without '.' or '..'" },
);

/** A local id of one kind of entity: lowercase words, `-`, `.`, `_`, `/` between them. */
const LocalId = z.string().regex(
  /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/,
  "must be lowercase letters, digits, '.', '_', '-', with '/' between words",
).max(128);

/** A document id: one lowercase word or words joined by `-`; it begins every section id. */
const DocumentId = z.string().regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/).max(64);

/** A reference to a declared entity by its map id, `<kind>:<local id>`. */
const EntityRef = z.string().regex(
  /^(package|target|source_root|compilation_root|document|schema|profile):[a-z0-9][a-z0-9._\/-]*$/,
  "must be a map id of a declared entity, '<kind>:<id>'",
).max(160);

const Text = z.string().min(1).max(2000);

export const ManifestDocument = z.strictObject({
  id: DocumentId,
  path: RepoPath.refine((p) => p.endsWith(".md"), { message: "a document is a .md file" }),
  authority: z.enum(AUTHORITIES),
  title: Text,
  description: Text,
});

export const ManifestPackage = z.strictObject({
  id: LocalId,
  name: Text,
  /** The package's own manifest file (deno.json), whose tasks are its targets. */
  manifest: RepoPath,
  description: Text,
});

export const TARGET_KINDS = [
  "test",
  "check",
  "cli",
  "server",
  "bench",
  "generate",
  "build",
] as const;

export const ManifestTarget = z.strictObject({
  id: LocalId,
  package: LocalId,
  kind: z.enum(TARGET_KINDS),
  /** A task of the package manifest (`deno task <task>`), or else a literal command. */
  task: z.string().min(1).max(64).optional(),
  command: z.string().min(1).max(500).optional(),
  /** The program it runs, when it runs one. */
  entry: RepoPath.optional(),
  description: Text,
}).refine((t) => (t.task === undefined) !== (t.command === undefined), {
  message: "a target has exactly one of task and command",
});

export const ManifestSourceRoot = z.strictObject({
  id: LocalId,
  path: RepoPath,
  package: LocalId,
  language: z.enum(["typescript", "nazm"]),
  /** `layer`: a compiler or server layer under src/ (its README lists its invariants). */
  role: z.enum(["layer", "entry", "tests", "bench", "scripts", "examples"]),
  /** Source roots this one may import (the layer rule, for layers). */
  depends_on: z.array(LocalId),
  description: Text,
});

export const ManifestCompilationRoot = z.strictObject({
  id: LocalId,
  /** The root file, a .nz file under its source root. */
  path: RepoPath.refine((p) => p.endsWith(".nz"), { message: "a compilation root is a .nz file" }),
  source_root: LocalId,
  description: Text,
});

export const ManifestSchema = z.strictObject({
  id: LocalId,
  path: RepoPath.refine((p) => p.endsWith(".json"), { message: "a schema is a .json file" }),
  /** The `schema` value its documents carry, e.g. `nazm.docs-index/1`. */
  name: z.string().regex(/^nazm\.[a-z0-9-]+\/\d+$/),
  /** The tools whose output it describes (none for a schema of a file format). */
  tools: z.array(z.string().regex(/^nazm\.[a-z_]+$/)),
  description: Text,
});

export const ManifestProfile = z.strictObject({
  id: LocalId,
  title: Text,
  description: Text,
  /** The entities that change together for this kind of change, each with why. */
  changes: z.array(z.strictObject({ entity: EntityRef, reason: Text })).min(1),
  /** Targets (`target:<id>`) that must pass before the change is done. */
  checks: z.array(EntityRef).min(1),
});

export const Manifest = z.strictObject({
  schema: z.literal(MANIFEST_SCHEMA),
  name: LocalId,
  description: Text,
  documents: z.array(ManifestDocument).min(1),
  packages: z.array(ManifestPackage),
  targets: z.array(ManifestTarget),
  source_roots: z.array(ManifestSourceRoot),
  compilation_roots: z.array(ManifestCompilationRoot),
  schemas: z.array(ManifestSchema),
  mutation_profiles: z.array(ManifestProfile),
});
export type Manifest = z.infer<typeof Manifest>;
export type ManifestDocument = z.infer<typeof ManifestDocument>;

/**
 * Parses and checks manifest bytes: the shape, unique ids per kind, unique
 * document paths, and every reference resolving to a declared entity.
 * Returns the manifest, or one sentence saying what is wrong.
 */
export function parseManifest(bytes: Uint8Array): Outcome<Manifest, "manifest_invalid"> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return invalid(`${MANIFEST_PATH} is not UTF-8 JSON`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(`${MANIFEST_PATH} at ${formatPath(issue.path)}: ${issue.message}`);
  }
  const manifest = parsed.data;
  const problem = checkReferences(manifest);
  return problem === null ? answer(manifest) : invalid(`${MANIFEST_PATH}: ${problem}`);
}

function invalid(message: string): Outcome<never, "manifest_invalid"> {
  return refuse("unavailable", "manifest_invalid", message);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "the top level" : path.map(String).join(".");
}

/** The map ids of every entity the manifest declares. */
export function declaredIds(manifest: Manifest): Set<string> {
  const ids = new Set<string>();
  for (const d of manifest.documents) ids.add(`document:${d.id}`);
  for (const p of manifest.packages) ids.add(`package:${p.id}`);
  for (const t of manifest.targets) ids.add(`target:${t.id}`);
  for (const s of manifest.source_roots) ids.add(`source_root:${s.id}`);
  for (const c of manifest.compilation_roots) ids.add(`compilation_root:${c.id}`);
  for (const s of manifest.schemas) ids.add(`schema:${s.id}`);
  for (const p of manifest.mutation_profiles) ids.add(`profile:${p.id}`);
  return ids;
}

function checkReferences(m: Manifest): string | null {
  const groups: [string, readonly { id: string }[]][] = [
    ["document", m.documents],
    ["package", m.packages],
    ["target", m.targets],
    ["source_root", m.source_roots],
    ["compilation_root", m.compilation_roots],
    ["schema", m.schemas],
    ["profile", m.mutation_profiles],
  ];
  for (const [kind, items] of groups) {
    const seen = new Set<string>();
    for (const { id } of items) {
      if (seen.has(id)) return `the ${kind} id ${id} is declared twice`;
      seen.add(id);
    }
  }
  const paths = new Set<string>();
  for (const d of m.documents) {
    if (paths.has(d.path)) return `the document path ${d.path} is named twice`;
    paths.add(d.path);
  }
  const packages = new Set(m.packages.map((p) => p.id));
  const roots = new Set(m.source_roots.map((s) => s.id));
  for (const t of m.targets) {
    if (!packages.has(t.package)) return `target ${t.id} names an unknown package ${t.package}`;
  }
  for (const s of m.source_roots) {
    if (!packages.has(s.package)) {
      return `source root ${s.id} names an unknown package ${s.package}`;
    }
    for (const d of s.depends_on) {
      if (!roots.has(d)) return `source root ${s.id} depends on an unknown source root ${d}`;
    }
  }
  for (const c of m.compilation_roots) {
    const root = m.source_roots.find((s) => s.id === c.source_root);
    if (root === undefined) {
      return `compilation root ${c.id} names an unknown source root ${c.source_root}`;
    }
    if (!c.path.startsWith(`${root.path}/`)) {
      return `compilation root ${c.id} is not under its source root ${root.path}`;
    }
  }
  const ids = declaredIds(m);
  for (const p of m.mutation_profiles) {
    for (const change of p.changes) {
      if (!ids.has(change.entity)) {
        return `profile ${p.id} names an unknown entity ${change.entity}`;
      }
    }
    for (const check of p.checks) {
      if (!check.startsWith("target:") || !ids.has(check)) {
        return `profile ${p.id} names ${check} as a check, which is not a declared target`;
      }
    }
  }
  return null;
}
