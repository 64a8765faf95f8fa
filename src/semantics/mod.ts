/**
 * The semantics layer's public entry: load a compilation (modules, names,
 * types, diagnostics with fixes) and its semantic model; the diagnostic
 * registry; the one serialization of a diagnostic. Nothing here prints,
 * speaks MCP or knows JSON Schema.
 *
 * @module
 */
export {
  type CheckedProgram,
  type Compilation,
  compile,
  type CompiledFile,
  type CompileOptions,
  type DefIdentity,
  type FileMemo,
  type Focus,
  loadCompilation,
  type LoadedFiles,
  type LoadOptions,
  loadParsed,
  type ParseCache,
  type ParsedCompilation,
  parseKey,
  type RejectedFile,
  sortDiagnostics,
} from "./compile.ts";
export { type Engine, type EngineReport, newEngine } from "./engine.ts";
export {
  diskHost,
  MAX_FILE_BYTES,
  MAX_FILES,
  moduleNameOf,
  openSources,
  type ReadError,
  type SourceHost,
  type SourceOptions,
  type SourceRead,
  type Sources,
  type UnreadError,
  withBuffers,
} from "./load.ts";
export {
  type Binding,
  type Definition,
  definitionAt,
  findDefinition,
  type IndexEntry,
  type IndexRole,
  keyAt,
  type Link,
  type Occurrence,
  type Scope,
  type SemanticModel,
  type TestBody,
} from "./model.ts";
export type { BindingKind, OuterName, Signature } from "./links.ts";
export {
  type DefKind,
  importAliasName,
  importModuleName,
  moduleOfKey,
  withArticle,
} from "./binder.ts";
export type { DefInfo, ModuleInfo, TestInfo } from "./binder.ts";
export type { Resolutions, ValueResolution, VariantResolution } from "./resolutions.ts";
export { showType, type Type } from "./types.ts";
export {
  type CodeGroup,
  type CodeInfo,
  codeInfo,
  CODES,
  type FixKind,
  REGISTRY,
} from "../base/mod.ts";
export {
  type DiagnosticJson,
  type EditJson,
  type FileLookup,
  fileLookup,
  type FixJson,
  primaryPlace,
  serializeDiagnostic,
  serializeDiagnostics,
  type SourceText,
} from "./serialize.ts";
export { renderDiagnostic, renderSummary } from "./render.ts";
export {
  PRELUDE_FUNCTIONS,
  PRELUDE_TYPE_DOCS,
  PRELUDE_TYPES,
  PRELUDE_VARIANTS,
  preludeEnumHead,
  preludeVariantText,
} from "./prelude.ts";
export { type LocalScopes, renameConflict } from "./rename.ts";
