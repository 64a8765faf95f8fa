/**
 * The repository map: every entity of the repository with a durable
 * identity — declared by the manifest, or derived from the documents and
 * from the compilation roots — with its authority, parent, structural
 * relations and how to retrieve more, and the repository state.
 *
 * @module
 */
import { join } from "node:path";
import { blake3, blake3Framed, COMPILER, confinedReader } from "../base/mod.ts";
import {
  type Authority,
  type Corpus,
  type CorpusDocument,
  type CorpusSection,
  ENTITY_KINDS,
  loadCorpus,
  type Manifest,
  type ReadFile,
} from "../docs/mod.ts";
import {
  type Compilation,
  type Definition,
  loadCompilation,
  type SourceHost,
} from "../semantics/mod.ts";

export const REPOSITORY_MAP_SCHEMA = "nazm.repository-map/1";

/** The kinds of entity, in the order the map lists them: the manifest's own list. */
export const MAP_KINDS = ENTITY_KINDS;
export type MapKind = typeof MAP_KINDS[number];

/**
 * How far an entity may be trusted: a document's authority (its sections
 * share it); `normative` for a published schema; `compiler` for what the
 * compiler derives from source (modules, definitions); `manifest` for what
 * the manifest declares (packages, targets, roots, profiles).
 */
export type EntityAuthority = Authority | "compiler" | "manifest";

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
export type RelationKind = typeof RELATION_KINDS[number];

export interface Relation {
  readonly kind: RelationKind;
  readonly to: string;
}

/**
 * How to get an entity's content again: a tool and its arguments, to which
 * the caller adds `state` — the map's `state` when `state` says
 * `repository`, its `docs_state` when `docs` — and nothing when null.
 */
export interface Retrieve {
  readonly tool: "nazm.docs_index" | "nazm.docs_section" | "nazm.task_context";
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly state: "repository" | "docs" | null;
}

export interface MapEntity {
  /** `<kind>:<local id>`. */
  readonly id: string;
  readonly kind: MapKind;
  readonly name: string;
  readonly authority: EntityAuthority;
  readonly parent: string | null;
  /** The file or folder it is, relative to the repository; null for what is not one. */
  readonly path: string | null;
  /** BLAKE3 of its bytes (a file, a section's text, a declaration's source); null otherwise. */
  readonly digest: string | null;
  /** Sorted by kind, then target. */
  readonly relations: readonly Relation[];
  readonly retrieve: Retrieve;
}

/** How one compilation root loaded. */
export interface CompilationStatus {
  readonly root: string;
  /** `ok`; `syntax_recovery` (modules listed, no definitions); `root_unreadable` (nothing). */
  readonly status: "ok" | "syntax_recovery" | "root_unreadable";
  readonly files: number;
  readonly diagnostics: number;
}

export interface RepositoryMap {
  readonly schema: typeof REPOSITORY_MAP_SCHEMA;
  readonly compiler: string;
  /** The repository state: pass it to nazm.task_context. */
  readonly state: string;
  /** The documentation state, which nazm.docs_section takes for a section. */
  readonly docs_state: string;
  readonly compilations: readonly CompilationStatus[];
  /** In MAP_KINDS order, then manifest or document order, then by id. */
  readonly entities: readonly MapEntity[];
}

export type RepoReason = "manifest_unavailable" | "manifest_invalid";

/** Everything the map was derived from, for task context to reuse within one call. */
export interface RepositoryModel {
  readonly map: RepositoryMap;
  readonly corpus: Corpus;
  /** Per compilation root id, its compilation (absent when its root was unreadable). */
  readonly compilations: ReadonlyMap<string, Compilation>;
  readonly byId: ReadonlyMap<string, MapEntity>;
  /** What each entity's content is made of, for task context. */
  readonly sources: ReadonlyMap<string, EntitySource>;
}

/** Where an entity's content comes from. */
export type EntitySource =
  | {
    readonly kind: "definition";
    readonly definition: Definition;
    readonly compilation: Compilation;
  }
  | { readonly kind: "module"; readonly compilation: Compilation; readonly file: string }
  | { readonly kind: "section"; readonly document: CorpusDocument; readonly section: CorpusSection }
  | { readonly kind: "document"; readonly document: CorpusDocument }
  | { readonly kind: "declared"; readonly summary: string };

/** Options every repository call accepts. */
export interface RepoReadOptions {
  /** How files are read: the confined read over the docs repository unless a test wraps it. */
  readonly readFile?: ReadFile;
}

/**
 * Builds the repository model from disk: the manifest, the documentation
 * corpus, and each compilation root's compilation. Reads the manifest, the
 * documents it names, and the compilation roots' files, nothing else.
 */
export function loadRepository(
  docsRoot: string,
  options: RepoReadOptions = {},
): RepositoryModel | { reason: RepoReason; message: string } {
  const read = options.readFile ?? confinedReader(docsRoot);
  const corpus = loadCorpus(docsRoot, read);
  if ("reason" in corpus) return corpus;
  const manifest = corpus.manifest;
  // The compilation roots' files too are read only inside the repository, by the same read.
  const host: SourceHost = { readFile: read };

  const entities: MapEntity[] = [];
  const sources = new Map<string, EntitySource>();
  const compilations = new Map<string, Compilation>();
  const statuses: CompilationStatus[] = [];
  const stateParts: (Uint8Array | string)[] = [corpus.state];

  const add = (
    entity: Omit<MapEntity, "relations">,
    relations: Relation[],
    source: EntitySource,
  ) => {
    entities.push({ ...entity, relations: sortRelations(relations) });
    sources.set(entity.id, source);
  };
  const declared = (summary: string): EntitySource => ({ kind: "declared", summary });

  // The diagnostics document's section for each code, by its title (`N0301`, `N0301 …`).
  const codeSections = new Map<string, string>();
  for (const document of corpus.documents.filter((d) => d.id === "diagnostics")) {
    for (const section of document.sections) {
      const code = /^(N\d{4})(?![0-9A-Za-z])/.exec(section.title)?.[1];
      if (code !== undefined && !codeSections.has(code)) {
        codeSections.set(code, `section:${section.id}`);
      }
    }
  }

  // Declared entities.
  for (const p of manifest.packages) {
    add(
      {
        id: `package:${p.id}`,
        kind: "package",
        name: p.name,
        authority: "manifest",
        parent: null,
        path: p.manifest,
        digest: null,
        retrieve: contextRetrieve(`package:${p.id}`),
      },
      [],
      declared(`${p.name} (${p.manifest}): ${p.description}`),
    );
  }
  for (const t of manifest.targets) {
    const runs = t.entry === undefined ? undefined : sourceRootOf(manifest, t.entry);
    const how = t.task === undefined ? t.command : `deno task ${t.task}`;
    add(
      {
        id: `target:${t.id}`,
        kind: "target",
        name: t.id,
        authority: "manifest",
        parent: `package:${t.package}`,
        path: t.entry ?? null,
        digest: null,
        retrieve: contextRetrieve(`target:${t.id}`),
      },
      runs ? [{ kind: "runs", to: `source_root:${runs}` }] : [],
      declared(`${t.kind}: ${how}. ${t.description}`),
    );
  }
  for (const s of manifest.source_roots) {
    add(
      {
        id: `source_root:${s.id}`,
        kind: "source_root",
        name: s.path,
        authority: "manifest",
        parent: `package:${s.package}`,
        path: s.path,
        digest: null,
        retrieve: contextRetrieve(`source_root:${s.id}`),
      },
      s.depends_on.map((d) => ({ kind: "depends_on", to: `source_root:${d}` })),
      declared(`${s.language} ${s.role} ${s.path}/: ${s.description}`),
    );
  }
  for (const c of manifest.compilation_roots) {
    const rootId = `compilation_root:${c.id}`;
    const sourceRoot = manifest.source_roots.find((s) => s.id === c.source_root)!;
    add(
      {
        id: rootId,
        kind: "compilation_root",
        name: c.path,
        authority: "manifest",
        parent: `source_root:${c.source_root}`,
        path: c.path,
        digest: null,
        retrieve: contextRetrieve(rootId),
      },
      [],
      declared(`the compilation of ${c.path}: ${c.description}`),
    );

    const compilation = loadCompilation(join(docsRoot, c.path), {
      sourceRoot: join(docsRoot, sourceRoot.path),
      host,
    });
    const status: CompilationStatus["status"] = compilation.rootError !== null
      ? "root_unreadable"
      : compilation.needsSyntaxRecovery
      ? "syntax_recovery"
      : "ok";
    statuses.push({
      root: rootId,
      status,
      files: compilation.files.length,
      diagnostics: compilation.diagnostics.length,
    });
    stateParts.push(c.id, status);
    if (status === "root_unreadable") continue;
    compilations.set(c.id, compilation);
    const modules = new Set(compilation.files.map((f) => f.module));
    for (const file of compilation.files) {
      stateParts.push(file.path, file.bytes);
      const imports = new Set<string>();
      for (const imp of file.parse.tree.imports) {
        const name = imp.path.map((p) => p.text).join(".");
        if (modules.has(name) && name !== file.module) imports.add(name);
      }
      const moduleId = `module:${c.id}/${file.module}`;
      add(
        {
          id: moduleId,
          kind: "module",
          name: file.module,
          authority: "compiler",
          parent: rootId,
          path: `${sourceRoot.path}/${file.path}`,
          digest: file.digest,
          retrieve: contextRetrieve(moduleId),
        },
        [...imports].map((m) => ({ kind: "imports", to: `module:${c.id}/${m}` })),
        {
          kind: "module",
          compilation,
          file: file.path,
        },
      );
    }
    if (status !== "ok") continue;
    for (const d of compilation.model.definitions) {
      const id = `definition:${c.id}/${d.key}`;
      const file = compilation.files.find((f) => f.path === d.file)!;
      const link = (kind: RelationKind, links: readonly { key: string }[]) =>
        links.map((l) => ({ kind, to: `definition:${c.id}/${l.key}` }));
      add(
        {
          id,
          kind: "definition",
          name: d.key,
          authority: "compiler",
          parent: `module:${c.id}/${d.module}`,
          path: `${sourceRoot.path}/${d.file}`,
          digest: blake3(file.bytes.subarray(d.span.start, d.span.end)),
          retrieve: contextRetrieve(id),
        },
        [
          ...link("calls", d.calls),
          ...link("uses", d.uses),
          ...link("types", d.types),
          ...d.diagnostics.flatMap((diagnostic) => {
            const section = codeSections.get(diagnostic.code);
            return section === undefined ? [] : [{ kind: "reports" as const, to: section }];
          }),
        ],
        {
          kind: "definition",
          definition: d,
          compilation,
        },
      );
    }
  }

  // Documents and their sections.
  const architecture = corpus.documents.find((d) => d.id === "architecture");
  for (const document of corpus.documents) {
    const docId = `document:${document.id}`;
    add(
      {
        id: docId,
        kind: "document",
        name: document.title,
        authority: document.authority,
        parent: null,
        path: document.path,
        digest: document.digest,
        retrieve: { tool: "nazm.docs_index", arguments: { document: document.id }, state: null },
      },
      [],
      { kind: "document", document },
    );
    for (const section of document.sections) {
      if (section.parent === null) continue; // the root section is the document itself
      add(
        {
          id: `section:${section.id}`,
          kind: "section",
          name: section.title,
          authority: document.authority,
          parent: section.parent === document.id ? docId : `section:${section.parent}`,
          path: document.path,
          digest: section.digest,
          retrieve: { tool: "nazm.docs_section", arguments: { id: section.id }, state: "docs" },
        },
        [],
        { kind: "section", document, section },
      );
    }
  }

  // Schemas and profiles.
  for (const s of manifest.schemas) {
    const relations: Relation[] = [];
    const schemasTarget = manifest.targets.find((t) => t.task === "schemas");
    if (schemasTarget) relations.push({ kind: "generated_by", to: `target:${schemasTarget.id}` });
    for (const tool of s.tools) {
      const section = architecture?.sections.find((x) => x.level > 0 && titleNames(x.title, tool));
      if (section) relations.push({ kind: "documented_by", to: `section:${section.id}` });
    }
    add(
      {
        id: `schema:${s.id}`,
        kind: "schema",
        name: s.name,
        authority: "normative",
        parent: manifest.packages.length > 0 ? `package:${manifest.packages[0].id}` : null,
        path: s.path,
        digest: null,
        retrieve: contextRetrieve(`schema:${s.id}`),
      },
      relations,
      declared(
        `${s.name} (${s.path}), the output of ${s.tools.join(", ") || "no tool"}: ${s.description}`,
      ),
    );
  }
  for (const p of manifest.mutation_profiles) {
    add(
      {
        id: `profile:${p.id}`,
        kind: "profile",
        name: p.title,
        authority: "manifest",
        parent: manifest.packages.length > 0 ? `package:${manifest.packages[0].id}` : null,
        path: null,
        digest: null,
        retrieve: contextRetrieve(`profile:${p.id}`),
      },
      [
        ...p.changes.map((c) => ({ kind: "changes" as const, to: c.entity })),
        ...p.checks.map((t) => ({ kind: "checked_by" as const, to: t })),
      ],
      declared(
        `${p.title}: ${p.description}\n${
          p.changes.map((c) => `- ${c.entity}: ${c.reason}`).join("\n")
        }\nchecks: ${p.checks.join(", ")}`,
      ),
    );
  }

  const state = blake3Framed(stateParts);
  const finished = entities;
  const order = new Map(MAP_KINDS.map((k, i) => [k, i]));
  finished.sort((a, b) => order.get(a.kind)! - order.get(b.kind)!); // stable: keeps declaration order
  const map: RepositoryMap = {
    schema: REPOSITORY_MAP_SCHEMA,
    compiler: COMPILER,
    state,
    docs_state: corpus.state,
    compilations: statuses,
    entities: finished,
  };
  return { map, corpus, compilations, byId: new Map(finished.map((e) => [e.id, e])), sources };
}

/**
 * The repository map of the docs repository `docsRoot`, read from disk now,
 * or why it cannot be made.
 */
export function repositoryMap(
  docsRoot: string,
  options: RepoReadOptions = {},
): RepositoryMap | { status: "unavailable"; reason: RepoReason; message: string } {
  const model = loadRepository(docsRoot, options);
  if ("reason" in model) {
    return { status: "unavailable", reason: model.reason, message: model.message };
  }
  return model.map;
}

/** Task context with the entity as its only seed and room for nothing else: exactly its content. */
function contextRetrieve(id: string): Retrieve {
  return {
    tool: "nazm.task_context",
    arguments: { seeds: [id], budget: { max_items: 1 } },
    state: "repository",
  };
}

function sortRelations(relations: Relation[]): Relation[] {
  const order = new Map(RELATION_KINDS.map((k, i) => [k, i]));
  const seen = new Set<string>();
  return relations
    .filter((r) => {
      const key = `${r.kind} ${r.to}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) =>
      order.get(a.kind)! - order.get(b.kind)! || (a.to < b.to ? -1 : a.to > b.to ? 1 : 0)
    );
}

/** The source root whose folder holds a path, the deepest one. */
function sourceRootOf(manifest: Manifest, path: string): string | undefined {
  let best: { id: string; length: number } | undefined;
  for (const s of manifest.source_roots) {
    if (path.startsWith(`${s.path}/`) && (best === undefined || s.path.length > best.length)) {
      best = { id: s.id, length: s.path.length };
    }
  }
  return best?.id;
}

/** True when a heading title names a tool as a whole word (`nazm.docs_index`, not `nazm.docs_index_x`). */
function titleNames(title: string, tool: string): boolean {
  const escaped = tool.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^A-Za-z0-9_.])${escaped}($|[^A-Za-z0-9_])`).test(title);
}
