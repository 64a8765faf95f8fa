/**
 * Compilation: a pure function of the sources (src/semantics/load.ts) that
 * reads top to bottom — parse every module the root reaches, bind each
 * alone, link imports across them, check every definition, run the
 * program-level checks, sort the diagnostics. Nothing here touches the
 * disk: `compile` only asks its {@link Sources} for contents by path.
 *
 * @module
 */
import { blake3, blake3Framed, type Diagnostic, DIAGNOSTICS, LineIndex } from "../base/mod.ts";
import { parse, type ParseResult, skimDeclarations } from "../syntax/mod.ts";
import { type CleanFile, type CleanFiles, importedModules } from "./clean.ts";
import { checkModules } from "./checker.ts";
import {
  type FileMemo,
  MAX_FILES,
  moduleNameOf,
  modulePath,
  openSources,
  type ReadError,
  type SourceOptions,
  type SourceRead,
  type Sources,
  type UnreadError,
} from "./load.ts";
import { buildModel, type SemanticModel } from "./model.ts";
import { checkProgram } from "./program.ts";
import type { Resolutions } from "./resolutions.ts";
import { analyzeIncrementally, type Engine, resolveModule } from "./engine.ts";
import { analyzeFocus, type Focus, readsFocus } from "./focus.ts";
import {
  type Analysis,
  bindAndLink,
  type CheckedProgram,
  type CompiledFile,
  moduleStatus,
  moduleTable,
  type ParsedModules,
  type RejectedFile,
  sortDiagnostics,
} from "./analysis.ts";

export type { Analysis, CheckedProgram, CompiledFile, FileMemo, ParsedModules, RejectedFile };
export type { DefIdentity, Focus } from "./focus.ts";
export { moduleStatus, sortDiagnostics };

/**
 * Parse results reused across compilations, keyed by {@link parseKey}: a
 * file's path and the BLAKE3 of its bytes. Never by the bytes alone: the
 * checker's side tables (resolutions) are keyed by syntax node, so two
 * modules with the same bytes sharing one tree would answer for each other.
 */
export type ParseCache = Map<string, ParseResult>;

/** A file's key in a {@link ParseCache}; the digest is fixed-length hex, so the pair is unambiguous. */
export function parseKey(path: string, digest: string): string {
  return digest + path;
}

export interface CompileOptions {
  /** Optional reuse of parse results; answers are identical without it. */
  readonly cache?: ParseCache;
  /** Optional reuse of digests and line indexes ({@link FileMemo}); answers are identical without it. */
  readonly memo?: FileMemo;
  /**
   * Optional incremental analysis (engine.ts): the engine's last analysis
   * when nothing it depends on changed (the same files, digests, root and
   * loading outcome), else only the modules whose inputs changed checked
   * again; answers are identical without it. Not used with `resolve`.
   */
  readonly engine?: Engine;
  /** With `engine`: keep this analysis as the engine's last one (default true). */
  readonly commit?: boolean;
  /**
   * Also record what every expression resolves to ({@link Compilation.checked}),
   * which a back end lowers from. Off by default: checking alone never pays for it.
   */
  readonly resolve?: boolean;
}

/** Where the sources are and how to compile them. */
export type LoadOptions = SourceOptions & CompileOptions;

/** How {@link loadParsed} may read some files from a skim; answers are identical without it. */
export interface SkimOptions {
  /**
   * Files another parse found clean (clean.ts): of these, with the same
   * digest, the modules no focus reads the bodies of are read from a skim,
   * their declarations alone, and parsed in full only when a focus needs
   * their bodies.
   */
  readonly clean?: CleanFiles;
  /** Optional reuse of skims, keyed by {@link parseKey}; never mixed with the {@link ParseCache}. */
  readonly skims?: ParseCache;
}

/** What a compilation read and parsed: everything before its analysis. */
export interface LoadedFiles {
  /** The root file's path relative to the source root. */
  readonly root: string;
  /** Absolute. */
  readonly sourceRoot: string;
  /** Every parsed file, sorted by path. */
  readonly files: readonly CompiledFile[];
  /**
   * Files read but not parsed (not UTF-8, over the size limit), sorted by
   * path: their diagnostics have places in them, and their bytes are part
   * of the compilation's source state.
   */
  readonly rejected: readonly RejectedFile[];
  /** True when any file had a syntax error. */
  readonly needsSyntaxRecovery: boolean;
  /** Set when the root file itself could not be read (the CLI's usage error). */
  readonly rootError: string | null;
  /**
   * Every absolute path asked for and not got, with why: with `files` and
   * `rejected`, everything the compilation read, so that it can be compiled
   * again from memory alone (an edited copy, verified before a plan is
   * returned) with the same outcome for every path.
   */
  readonly unread: ReadonlyMap<string, ReadError>;
}

/** The sources read and parsed, and some modules' facts on demand (focus.ts). */
export interface ParsedCompilation extends LoadedFiles {
  /**
   * The facts of these modules (module paths) as the whole analysis has
   * them, checking the bodies of only them and of the modules that import
   * them.
   */
  focus(modules: readonly string[]): Focus;
}

export interface Compilation extends LoadedFiles {
  /**
   * Every diagnostic: syntax, loading, semantic and program-level (file
   * null), sorted by file (program-level last), offset, code.
   */
  readonly diagnostics: readonly Diagnostic[];
  /** Built on first access (a memoized getter): `nazm check` never pays for it. */
  readonly model: SemanticModel;
  /**
   * The checker's resolutions for the nodes of one module: with `resolve`,
   * the whole analysis's; with the engine, that module checked again alone
   * (engine.ts `resolveModule`), null once the engine has moved on to
   * another analysis; null otherwise.
   */
  resolutionsOf(module: string): Resolutions | null;
  /** The checked modules and their resolutions, with `CompileOptions.resolve`; null otherwise. */
  readonly checked: CheckedProgram | null;
}

/**
 * Loads and checks the compilation of `root` (a path, absolute or relative
 * to the working directory): {@link compile} over {@link openSources}. Never
 * throws on bad input: every problem with the sources is a diagnostic; an
 * unreadable root sets `rootError`.
 */
export function loadCompilation(root: string, options: LoadOptions = {}): Compilation {
  return compile(openSources(root, options), options);
}

/** Compiles the root of `sources` and every module it imports, transitively. */
export function compile(sources: Sources, options: CompileOptions = {}): Compilation {
  const parsed = parseModules(sources, options.cache, options.memo);
  const resolve = options.resolve === true;
  const key = analysisKey(sources, parsed, resolve);
  const analysis = options.engine !== undefined && !resolve
    ? analyzeIncrementally(options.engine, parsed, key, options.commit ?? true)
    : analyze(parsed, resolve);
  return {
    ...loadedFiles(sources, parsed),
    diagnostics: analysis.diagnostics,
    get model(): SemanticModel {
      return analysis.model;
    },
    checked: analysis.checked,
    resolutionsOf(module: string): Resolutions | null {
      if (analysis.checked !== null) return analysis.checked.resolutions;
      return options.engine === undefined ? null : resolveModule(options.engine, analysis, module);
    },
  };
}

/** Reads and parses what {@link loadCompilation} would, and analyses nothing yet. */
export function loadParsed(
  root: string,
  options: LoadOptions & SkimOptions = {},
): ParsedCompilation {
  return parseCompilation(openSources(root, options), options);
}

/**
 * {@link compile}'s reading and parsing, with its analysis left to
 * {@link ParsedCompilation.focus}; every focus starts from one binding and
 * linking, made at the first (checking writes only its own side tables).
 */
function parseCompilation(
  sources: Sources,
  options: CompileOptions & SkimOptions = {},
): ParsedCompilation {
  const skim: Skim | undefined = options.clean === undefined || options.clean.size === 0
    ? undefined
    : { clean: options.clean, skims: options.skims, skimmed: new Map() };
  const parsed = parseModules(sources, options.cache, options.memo, skim);
  const imports = (file: CompiledFile) => importsOf(file, skim);
  return {
    ...loadedFiles(sources, parsed),
    // Each focus binds afresh what it reaches: its readers' nodes may just
    // have been parsed in full, and binding a few dozen modules costs little.
    focus: (modules) => {
      const focus = new Set(modules);
      if (skim !== undefined) parseReaders(parsed, focus, skim, options.cache);
      return analyzeFocus(parsed, moduleTable(parsed), focus, imports);
    },
  };
}

/**
 * The modules a file imports: of a file held as a skim, those its verdict
 * names (what the parse it was made from found, and so what the skim has),
 * without making the skim; of any other, its parse's.
 */
function importsOf(file: CompiledFile, skim: Skim | undefined): readonly string[] {
  return skim?.skimmed.get(file.path)?.imports ?? importedModules(file.parse);
}

/**
 * The skim options of one parsed compilation, and the files it holds as
 * skims, by path, with the verdict each was taken on: a skim is made when
 * something first reads the file's parse (a focus binds only the modules it
 * reaches), and the file parsed in full when a focus reads its bodies.
 */
interface Skim {
  readonly clean: CleanFiles;
  readonly skims: ParseCache | undefined;
  readonly skimmed: Map<string, CleanFile>;
}

/**
 * Parses in full, in place, each skimmed file whose body a focus on `focus`
 * checks (focus.ts `readsFocus`). A skim's declarations are the parse's
 * (syntax `skimDeclarations`), so the other modules' bindings do not change.
 */
function parseReaders(
  parsed: ParsedModules,
  focus: ReadonlySet<string>,
  skim: Skim,
  cache: ParseCache | undefined,
): void {
  for (let i = 0; i < parsed.files.length; i++) {
    const file = parsed.files[i];
    if (!skim.skimmed.has(file.path)) continue;
    if (!readsFocus(file.module, importsOf(file, skim), focus)) continue;
    // Not spread: that would make the skim this replaces.
    const { path, module, bytes, digest, lineIndex } = file;
    const parse = cachedParse(bytes, digest, path, cache);
    parsed.files[i] = { path, module, bytes, digest, lineIndex, parse };
    skim.skimmed.delete(path);
  }
}

/** What a compilation read and parsed, as {@link LoadedFiles}. */
function loadedFiles(sources: Sources, parsed: ParsedModules): LoadedFiles {
  return {
    root: sources.root,
    sourceRoot: sources.sourceRoot,
    files: parsed.files,
    rejected: parsed.rejected,
    needsSyntaxRecovery: parsed.needsSyntaxRecovery,
    rootError: parsed.rootError,
    unread: parsed.unread,
  };
}

/** Bind → link → check → program checks → sort. */
function analyze(parsed: ParsedModules, resolve: boolean): Analysis {
  const bound = bindAndLink(parsed);
  const { modules, linked } = bound;
  const diagnostics = [...bound.diagnostics];
  const checked = checkModules(modules, linked, diagnostics, { resolve });
  checkProgram(modules, parsed.rootModule, checked, diagnostics);
  const sorted = sortDiagnostics([...parsed.diagnostics, ...diagnostics]);
  let model: SemanticModel | null = null;
  return {
    diagnostics: sorted,
    checked: checked.resolutions === null
      ? null
      : { modules, signatures: checked.signatures, resolutions: checked.resolutions },
    get model(): SemanticModel {
      model ??= buildModel(modules, checked, sorted);
      return model;
    },
  };
}

// ---------------------------------------------------------------- parsing every module

/**
 * Reads and parses the root, then every module it imports, breadth first,
 * each path once. A missing import is left to the linker (N0202, at the
 * import); every other unread file is diagnosed here.
 */
function parseModules(
  sources: Sources,
  cache: ParseCache | undefined,
  memo: FileMemo | undefined,
  skim?: Skim,
): ParsedModules {
  const rootModule = moduleNameOf(sources.root);
  const out: ParsedModules = {
    rootModule,
    rootError: sources.rootOutside,
    files: [],
    rejected: [],
    failed: new Set(),
    unread: new Map(),
    diagnostics: [],
    needsSyntaxRecovery: false,
  };
  let rootError = sources.rootOutside;
  const queue = rootError === null ? [{ module: rootModule, path: sources.root }] : [];
  const seen = new Set<string>([rootModule]);
  let overflow = false;
  for (let q = 0; q < queue.length; q++) {
    const { module, path } = queue[q];
    if (q >= MAX_FILES) {
      out.failed.add(module);
      if (!overflow) {
        overflow = true;
        const at = { file: null, span: null };
        out.diagnostics.push(DIAGNOSTICS.tooManyFiles.overflow(at, MAX_FILES, module));
      }
      continue;
    }
    const read = sources.read(path);
    if (read.kind === "unread" && q === 0) {
      out.unread.set(sources.absolute(path), read.error);
      rootError = `cannot read ${sources.rootName}: ${read.error.message}`;
      out.diagnostics.push(rootRefused(sources.root, read.error));
      continue;
    }
    const file = acceptedFile(sources, module, path, read, cache, memo, out, skim);
    if (file === null) continue;
    out.files.push(file);
    for (const name of importsOf(file, skim)) {
      if (seen.has(name)) continue;
      seen.add(name);
      queue.push({ module: name, path: modulePath(name) });
    }
  }
  out.files.sort(byPath);
  out.rejected.sort(byPath);
  let needsSyntaxRecovery = false;
  for (const f of out.files) {
    // A file held as a skim has no syntax diagnostic (its verdict says so).
    if (skim?.skimmed.has(f.path)) continue;
    for (const d of f.parse.diagnostics) {
      out.diagnostics.push(d);
      if (d.severity === "error") needsSyntaxRecovery = true;
    }
  }
  return {
    ...out,
    rootModule: rootError === null ? rootModule : null,
    rootError,
    needsSyntaxRecovery,
  };
}

/** The parsed file, or null when it could not be parsed (recorded and diagnosed in `out`). */
function acceptedFile(
  sources: Sources,
  module: string,
  path: string,
  read: SourceRead,
  cache: ParseCache | undefined,
  memo: FileMemo | undefined,
  out: ParsedModules,
  skim: Skim | undefined,
): CompiledFile | null {
  switch (read.kind) {
    case "unread":
      out.unread.set(sources.absolute(path), read.error);
      // A missing import is the linker's unknown module, reported at the import.
      if (read.error.error === "not_found") return null;
      out.failed.add(module);
      out.diagnostics.push(fileRefused(path, read.error));
      return null;
    case "too_large":
      if (read.error !== null) out.unread.set(sources.absolute(path), read.error);
      out.failed.add(module);
      out.rejected.push(rejectedFile(path, new Uint8Array(0), read.why));
      out.diagnostics.push(DIAGNOSTICS.fileTooLarge.refused(atStart(path), read.why));
      return null;
    case "not_utf8": {
      out.failed.add(module);
      out.rejected.push(rejectedFile(path, read.bytes, null));
      const start = read.offset;
      const span = { start, end: Math.min(start + 1, read.bytes.length) };
      out.diagnostics.push(DIAGNOSTICS.notUtf8.at({ file: path, span }, start));
      return null;
    }
    case "text": {
      let seen = memo?.get(read.bytes);
      if (seen === undefined) {
        seen = { digest: blake3(read.bytes), lineIndex: new LineIndex(read.bytes) };
        memo?.set(read.bytes, seen);
      }
      const { digest, lineIndex } = seen;
      const bytes = read.bytes;
      const file = { path, module, bytes, digest, lineIndex };
      const clean = skim?.clean.get(path);
      const key = parseKey(path, digest);
      // A clean file's skim, unless its parse is at hand (the cache's, whole,
      // is as good and free); any other file's parse.
      if (skim === undefined || clean?.digest !== digest || cache?.has(key)) {
        return { ...file, parse: cachedParse(bytes, digest, path, cache) };
      }
      skim.skimmed.set(path, clean);
      let made: ParseResult | undefined;
      return {
        ...file,
        // Made when first read: a focus binds only the modules it reaches.
        get parse(): ParseResult {
          made ??= skim.skims?.get(key);
          if (made === undefined) {
            made = skimDeclarations(bytes, path, clean.bodies);
            skim.skims?.set(key, made);
          }
          return made;
        },
      };
    }
  }
}

function cachedParse(
  bytes: Uint8Array,
  digest: string,
  path: string,
  cache: ParseCache | undefined,
): ParseResult {
  const key = parseKey(path, digest);
  const hit = cache?.get(key);
  if (hit !== undefined) return hit;
  const result = parse(bytes, path);
  cache?.set(key, result);
  return result;
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function rejectedFile(path: string, bytes: Uint8Array, tooLarge: string | null): RejectedFile {
  return { path, bytes, digest: blake3(bytes), lineIndex: new LineIndex(bytes), tooLarge };
}

/** The root file refused unread: a program-level diagnostic, coded by why. */
function rootRefused(root: string, read: UnreadError): Diagnostic {
  const at = { file: null, span: null };
  switch (read.error) {
    case "not_regular":
      return DIAGNOSTICS.notRegularFile.root(at, root, read.message);
    case "link_outside":
      return DIAGNOSTICS.linkOutside.root(at, root, read.message);
    case "not_found":
    case "unreadable":
      return DIAGNOSTICS.unreadableFile.root(at, root, read.message);
  }
}

/** An imported file refused unread (a missing one is the linker's N0202), naming the file and why. */
function fileRefused(path: string, read: UnreadError): Diagnostic {
  const at = atStart(path);
  switch (read.error) {
    case "not_regular":
      return DIAGNOSTICS.notRegularFile.file(at, path, read.kind);
    case "link_outside":
      return DIAGNOSTICS.linkOutside.file(at, path);
    case "not_found":
    case "unreadable":
      return DIAGNOSTICS.unreadableFile.file(at, path, read.message);
  }
}

/** A loading diagnostic's place: the start of the file. */
function atStart(file: string) {
  return { file, span: { start: 0, end: 0 } };
}

// ---------------------------------------------------------------- the analysis key

/** Everything an analysis depends on, digested: equal keys mean equal analyses. */
export function analysisKey(sources: Sources, parsed: ParsedModules, resolve: boolean): string {
  const parts: string[] = [
    sources.sourceRoot,
    sources.root,
    parsed.rootError ?? "",
    [...parsed.failed].sort().join("\n"),
    resolve ? "resolve" : "",
  ];
  for (const f of parsed.files) parts.push(f.path, f.module, f.digest);
  for (const d of parsed.diagnostics) parts.push(JSON.stringify(d));
  return blake3Framed(parts);
}
