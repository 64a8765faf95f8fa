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
  answer,
  MAP_KINDS,
  type MapEntity,
  type Outcome,
  RELATION_KINDS,
  type RelationKind,
  type RepositoryMapAnswer,
  type RepositoryMapReason,
  type Retrieve,
} from "../contracts/mod.ts";
import {
  type Corpus,
  type CorpusDocument,
  type CorpusSection,
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

/** One structural relation, pointing from the entity that states it. */
export type Relation = MapEntity["relations"][number];

/** How one compilation root loaded. */
export type CompilationStatus = RepositoryMapAnswer["compilations"][number];

/** Everything the map was derived from, for task context to reuse within one call. */
export interface RepositoryModel {
  readonly map: RepositoryMapAnswer;
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
): Outcome<RepositoryModel, RepositoryMapReason> {
  const read = options.readFile ?? confinedReader(docsRoot);
  const loaded = loadCorpus(docsRoot, read);
  if (loaded.kind === "refusal") return loaded;
  const corpus = loaded.value;
  const manifest = corpus.manifest;
  const builder = new MapBuilder(corpus.state);
  addDeclared(builder, manifest);
  // The compilation roots' files too are read only inside the repository, by the same read.
  const host: SourceHost = { readFile: read };
  const codeSections = diagnosticSections(corpus);
  for (const root of manifest.compilation_roots) {
    addCompilationRoot(builder, { docsRoot, manifest, root, host, codeSections });
  }
  addDocuments(builder, corpus);
  addSchemas(builder, manifest, corpus);
  addProfiles(builder, manifest);
  return answer(builder.finish(corpus));
}

/**
 * The repository map of the docs repository `docsRoot`, read from disk now,
 * or why it cannot be made.
 */
export function repositoryMap(
  docsRoot: string,
  options: RepoReadOptions = {},
): Outcome<RepositoryMapAnswer, RepositoryMapReason> {
  const model = loadRepository(docsRoot, options);
  return model.kind === "refusal" ? model : answer(model.value.map);
}

/** The entities found so far, their sources, and what the state is made of, in reading order. */
class MapBuilder {
  readonly entities: MapEntity[] = [];
  readonly sources = new Map<string, EntitySource>();
  readonly compilations = new Map<string, Compilation>();
  readonly statuses: CompilationStatus[] = [];
  readonly stateParts: (Uint8Array | string)[];

  constructor(docsState: string) {
    this.stateParts = [docsState];
  }

  add(entity: Omit<MapEntity, "relations">, relations: Relation[], source: EntitySource): void {
    this.entities.push({ ...entity, relations: sortRelations(relations) });
    this.sources.set(entity.id, source);
  }

  /** A declared entity: its content is a summary of what the manifest says. */
  declare(
    entity: Omit<MapEntity, "relations" | "retrieve">,
    relations: Relation[],
    summary: string,
  ) {
    this.add({ ...entity, retrieve: contextRetrieve(entity.id) }, relations, {
      kind: "declared",
      summary,
    });
  }

  finish(corpus: Corpus): RepositoryModel {
    const order = new Map(MAP_KINDS.map((k, i) => [k, i]));
    const entities = this.entities;
    entities.sort((a, b) => order.get(a.kind)! - order.get(b.kind)!); // stable: keeps declaration order
    const map: RepositoryMapAnswer = {
      schema: "nazm.repository-map/1",
      compiler: COMPILER,
      state: blake3Framed(this.stateParts),
      docs_state: corpus.state,
      compilations: this.statuses,
      entities,
    };
    return {
      map,
      corpus,
      compilations: this.compilations,
      byId: new Map(entities.map((e) => [e.id, e])),
      sources: this.sources,
    };
  }
}

/** The diagnostics document's section for each code, by its title (`N0301`, `N0301 …`). */
function diagnosticSections(corpus: Corpus): Map<string, string> {
  const codeSections = new Map<string, string>();
  for (const document of corpus.documents.filter((d) => d.id === "diagnostics")) {
    for (const section of document.sections) {
      const code = /^(N\d{4})(?![0-9A-Za-z])/.exec(section.title)?.[1];
      if (code !== undefined && !codeSections.has(code)) {
        codeSections.set(code, `section:${section.id}`);
      }
    }
  }
  return codeSections;
}

/** Packages, targets, source roots: what the manifest declares of the code's shape. */
function addDeclared(builder: MapBuilder, manifest: Manifest): void {
  for (const p of manifest.packages) {
    builder.declare(
      {
        id: `package:${p.id}`,
        kind: "package",
        name: p.name,
        authority: "manifest",
        parent: null,
        path: p.manifest,
        digest: null,
      },
      [],
      `${p.name} (${p.manifest}): ${p.description}`,
    );
  }
  for (const t of manifest.targets) {
    const runs = t.entry === undefined ? undefined : sourceRootOf(manifest, t.entry);
    const how = t.task === undefined ? t.command : `deno task ${t.task}`;
    builder.declare(
      {
        id: `target:${t.id}`,
        kind: "target",
        name: t.id,
        authority: "manifest",
        parent: `package:${t.package}`,
        path: t.entry ?? null,
        digest: null,
      },
      runs ? [{ kind: "runs", to: `source_root:${runs}` }] : [],
      `${t.kind}: ${how}. ${t.description}`,
    );
  }
  for (const s of manifest.source_roots) {
    builder.declare(
      {
        id: `source_root:${s.id}`,
        kind: "source_root",
        name: s.path,
        authority: "manifest",
        parent: `package:${s.package}`,
        path: s.path,
        digest: null,
      },
      s.depends_on.map((d) => ({ kind: "depends_on", to: `source_root:${d}` })),
      `${s.language} ${s.role} ${s.path}/: ${s.description}`,
    );
  }
}

interface CompilationRootInput {
  readonly docsRoot: string;
  readonly manifest: Manifest;
  readonly root: Manifest["compilation_roots"][number];
  readonly host: SourceHost;
  readonly codeSections: ReadonlyMap<string, string>;
}

/**
 * One compilation root, its load status, and — unless its root is
 * unreadable — its modules, and — unless it needs syntax recovery — its
 * definitions.
 */
function addCompilationRoot(builder: MapBuilder, input: CompilationRootInput): void {
  const { docsRoot, manifest, root: c, host } = input;
  const rootId = `compilation_root:${c.id}`;
  const sourceRoot = manifest.source_roots.find((s) => s.id === c.source_root)!;
  builder.declare(
    {
      id: rootId,
      kind: "compilation_root",
      name: c.path,
      authority: "manifest",
      parent: `source_root:${c.source_root}`,
      path: c.path,
      digest: null,
    },
    [],
    `the compilation of ${c.path}: ${c.description}`,
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
  builder.statuses.push({
    root: rootId,
    status,
    files: compilation.files.length,
    diagnostics: compilation.diagnostics.length,
  });
  builder.stateParts.push(c.id, status);
  if (status === "root_unreadable") return;
  builder.compilations.set(c.id, compilation);
  addModules(builder, c.id, sourceRoot.path, compilation);
  if (status === "ok") {
    addDefinitions(builder, c.id, sourceRoot.path, compilation, input.codeSections);
  }
}

function addModules(
  builder: MapBuilder,
  rootId: string,
  sourceRootPath: string,
  compilation: Compilation,
): void {
  const modules = new Set(compilation.files.map((f) => f.module));
  for (const file of compilation.files) {
    builder.stateParts.push(file.path, file.bytes);
    const imports = new Set<string>();
    for (const imp of file.parse.tree.imports) {
      const name = imp.path.map((p) => p.text).join(".");
      if (modules.has(name) && name !== file.module) imports.add(name);
    }
    const moduleId = `module:${rootId}/${file.module}`;
    builder.add(
      {
        id: moduleId,
        kind: "module",
        name: file.module,
        authority: "compiler",
        parent: `compilation_root:${rootId}`,
        path: `${sourceRootPath}/${file.path}`,
        digest: file.digest,
        retrieve: contextRetrieve(moduleId),
      },
      [...imports].map((m) => ({ kind: "imports", to: `module:${rootId}/${m}` })),
      { kind: "module", compilation, file: file.path },
    );
  }
}

function addDefinitions(
  builder: MapBuilder,
  rootId: string,
  sourceRootPath: string,
  compilation: Compilation,
  codeSections: ReadonlyMap<string, string>,
): void {
  for (const d of compilation.model.definitions) {
    const id = `definition:${rootId}/${d.key}`;
    const file = compilation.files.find((f) => f.path === d.file)!;
    const link = (kind: RelationKind, links: readonly { key: string }[]) =>
      links.map((l) => ({ kind, to: `definition:${rootId}/${l.key}` }));
    builder.add(
      {
        id,
        kind: "definition",
        name: d.key,
        authority: "compiler",
        parent: `module:${rootId}/${d.module}`,
        path: `${sourceRootPath}/${d.file}`,
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
      { kind: "definition", definition: d, compilation },
    );
  }
}

/** Documents and their sections (a document's root section is the document itself). */
function addDocuments(builder: MapBuilder, corpus: Corpus): void {
  for (const document of corpus.documents) {
    const docId = `document:${document.id}`;
    builder.add(
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
      if (section.parent === null) continue;
      builder.add(
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
}

function addSchemas(builder: MapBuilder, manifest: Manifest, corpus: Corpus): void {
  const architecture = corpus.documents.find((d) => d.id === "architecture");
  for (const s of manifest.schemas) {
    const relations: Relation[] = [];
    const schemasTarget = manifest.targets.find((t) => t.task === "schemas");
    if (schemasTarget) relations.push({ kind: "generated_by", to: `target:${schemasTarget.id}` });
    for (const tool of s.tools) {
      const section = architecture?.sections.find((x) => x.level > 0 && titleNames(x.title, tool));
      if (section) relations.push({ kind: "documented_by", to: `section:${section.id}` });
    }
    builder.declare(
      {
        id: `schema:${s.id}`,
        kind: "schema",
        name: s.name,
        authority: "normative",
        parent: manifest.packages.length > 0 ? `package:${manifest.packages[0].id}` : null,
        path: s.path,
        digest: null,
      },
      relations,
      `${s.name} (${s.path}), the output of ${s.tools.join(", ") || "no tool"}: ${s.description}`,
    );
  }
}

function addProfiles(builder: MapBuilder, manifest: Manifest): void {
  for (const p of manifest.mutation_profiles) {
    builder.declare(
      {
        id: `profile:${p.id}`,
        kind: "profile",
        name: p.title,
        authority: "manifest",
        parent: manifest.packages.length > 0 ? `package:${manifest.packages[0].id}` : null,
        path: null,
        digest: null,
      },
      [
        ...p.changes.map((c) => ({ kind: "changes" as const, to: c.entity })),
        ...p.checks.map((t) => ({ kind: "checked_by" as const, to: t })),
      ],
      `${p.title}: ${p.description}\n${
        p.changes.map((c) => `- ${c.entity}: ${c.reason}`).join("\n")
      }\nchecks: ${p.checks.join(", ")}`,
    );
  }
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
