/**
 * Module loading: the root file and every module it imports, transitively,
 * resolved under the source root — and nothing else. Each file is read
 * exactly once through a {@link SourceHost}; the disk host reads by the one
 * confined read of src/base/files.ts (which looks at the file and the
 * folders on its way before and after it reads), and nothing else on disk is
 * touched (no directory listing). Synchronous on purpose: reads are cheap
 * and the hot path stays free of awaits.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import {
  blake3,
  blake3Framed,
  type ConfinedReadError,
  type Diagnostic,
  LineIndex,
  newReadSession,
  readConfined,
  realPathOrResolved,
} from "../base/mod.ts";
import { parse, type ParseResult } from "../syntax/mod.ts";
import { type Analysis, analyze, type CheckedProgram } from "./analyze.ts";
import type { SemanticModel } from "./model.ts";
import { CODES } from "./registry.ts";

/** Why a file could not be read (nothing of it was). */
export type ReadError = ConfinedReadError;

/** How the loader reads files: the disk for the CLI and server, memory in tests. */
export interface SourceHost {
  /**
   * The file's bytes, or why it was not read. A host may refuse a file over
   * `limit` bytes unread (`too_large`); the loader refuses a longer answer too.
   */
  readFile(absolutePath: string, limit: number): Uint8Array | ReadError;
}

/** Parse results reused across compilations, keyed by the BLAKE3 of a file's bytes. */
export type ParseCache = Map<string, ParseResult>;

/**
 * The last analysis, reusable when a compilation has exactly the same
 * files (paths and BLAKE3 digests), root and loading outcome: then the
 * analysis is a pure function of the same input, so the answer is the same.
 */
export interface AnalysisReuse {
  last: { readonly key: string; readonly analysis: Analysis } | null;
}

export interface LoadOptions {
  /** Imports resolve under it; default: the root file's folder. */
  readonly sourceRoot?: string;
  /** Default: {@link diskHost} under the source root. */
  readonly host?: SourceHost;
  /** Optional reuse of parse results; answers are identical without it. */
  readonly cache?: ParseCache;
  /** Optional reuse of the last whole analysis; answers are identical without it. */
  readonly reuse?: AnalysisReuse;
  /**
   * Also record what every expression resolves to ({@link Compilation.checked}),
   * which a back end lowers from. Off by default: checking alone never pays for it.
   */
  readonly resolve?: boolean;
}

export interface CompiledFile {
  /** Relative to the source root, `/` separators. */
  readonly path: string;
  /** `geometry.shapes`. */
  readonly module: string;
  readonly bytes: Uint8Array;
  /** Lowercase hex BLAKE3 of the bytes. */
  readonly digest: string;
  readonly lineIndex: LineIndex;
  readonly parse: ParseResult;
}

/** A file that was read but could not be parsed, or refused as too large. */
export interface RejectedFile {
  readonly path: string;
  /** Its bytes; empty when it was too large (never read past the limit). */
  readonly bytes: Uint8Array;
  readonly digest: string;
  readonly lineIndex: LineIndex;
  /** Why it was too large (its size and the limit), or null when its bytes were read. */
  readonly tooLarge: string | null;
}

function rejectedFile(path: string, bytes: Uint8Array, tooLarge: string | null): RejectedFile {
  return { path, bytes, digest: blake3(bytes), lineIndex: new LineIndex(bytes), tooLarge };
}

export interface Compilation {
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
  /**
   * Every diagnostic: syntax, loading, semantic and program-level (file
   * null), sorted by file (program-level last), offset, code.
   */
  readonly diagnostics: readonly Diagnostic[];
  /** True when any file had a syntax error. */
  readonly needsSyntaxRecovery: boolean;
  readonly model: SemanticModel;
  /** Set when the root file itself could not be read (the CLI's usage error). */
  readonly rootError: string | null;
  /**
   * Every path the loader asked its host for and did not get, with why: with
   * `files` and `rejected`, everything the compilation read, so that it can be
   * loaded again from memory alone (an edited copy, verified before a plan is
   * returned) with the same outcome for every path.
   */
  readonly unread: ReadonlyMap<string, ReadError>;
  /** The checked modules and their resolutions, with `LoadOptions.resolve`; null otherwise. */
  readonly checked: CheckedProgram | null;
}

/** At most 8 MiB per source file. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** At most 10,000 files per compilation. */
export const MAX_FILES = 10_000;

function isReadError(value: Uint8Array | ReadError): value is ReadError {
  return !(value instanceof Uint8Array);
}

/**
 * Reads the disk under a source root (a real path) through the one confined
 * read (src/base/files.ts): a regular file inside it, at most `limit` bytes,
 * proved to be the file that was checked; anything else refused unread. One
 * host per compilation (its reads share one session).
 */
export function diskHost(realSourceRoot: string): SourceHost {
  const session = newReadSession();
  return { readFile: (path, limit) => readConfined(realSourceRoot, path, limit, session) };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The offset of the first byte that is not part of valid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  try {
    utf8.decode(bytes);
    return -1;
  } catch {
    // Only on failure: find the place, sequence by sequence.
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i];
      let n = b < 0x80
        ? 1
        : (b & 0xe0) === 0xc0
        ? 2
        : (b & 0xf0) === 0xe0
        ? 3
        : (b & 0xf8) === 0xf0
        ? 4
        : 0;
      if (n === 0 || i + n > bytes.length) return i;
      for (let k = 1; k < n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
      const cp = n === 2
        ? ((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f)
        : n === 3
        ? ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f)
        : n === 4
        ? ((b & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) |
          (bytes[i + 3] & 0x3f)
        : b;
      const min = n === 2 ? 0x80 : n === 3 ? 0x800 : n === 4 ? 0x10000 : 0;
      if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
      i += n === 0 ? 1 : n;
      n = 0;
    }
    return bytes.length;
  }
}

/** `geometry/shapes.nz` → `geometry.shapes`. */
export function moduleNameOf(relativePath: string): string {
  return relativePath.replace(/\.nz$/, "").split("/").join(".");
}

function toSlashes(path: string): string {
  return path.replaceAll("\\", "/");
}

function parsed(bytes: Uint8Array, digest: string, path: string, cache: ParseCache | undefined) {
  const hit = cache?.get(digest);
  if (hit !== undefined) {
    // Same bytes under another path: the diagnostics name this file.
    if (hit.diagnostics.every((d) => d.file === path)) return hit;
    return {
      ...hit,
      diagnostics: hit.diagnostics.map((d) => ({
        ...d,
        file: path,
        labels: d.labels.map((l) => ({ ...l, file: path })),
        fixes: d.fixes.map((f) => ({ ...f, edits: f.edits.map((e) => ({ ...e, file: path })) })),
      })),
    };
  }
  const result = parse(bytes, path);
  cache?.set(digest, result);
  return result;
}

/** Orders diagnostics by file (program-level last), offset, code. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.sort((a, b) => {
    if (a.file !== b.file) {
      if (a.file === null) return 1;
      if (b.file === null) return -1;
      return a.file < b.file ? -1 : 1;
    }
    const ao = a.span?.start ?? 0;
    const bo = b.span?.start ?? 0;
    if (ao !== bo) return ao - bo;
    return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
  });
}

/**
 * Loads and checks the compilation of `root` (a path, absolute or relative
 * to the working directory). Never throws on bad input: every problem with
 * the sources is a diagnostic; an unreadable root sets `rootError`.
 */
export function loadCompilation(root: string, options: LoadOptions = {}): Compilation {
  // On disk, real paths: the confinement check compares real paths, and a
  // root reached through a link names its files as they really are.
  const real = options.host === undefined ? realPathOrResolved : (path: string) => resolve(path);
  const rootAbs = real(root);
  const sourceRoot = real(options.sourceRoot ?? dirname(rootAbs));
  const host = options.host ?? diskHost(sourceRoot);
  const rootRel = toSlashes(relative(sourceRoot, rootAbs));
  const rootModule = moduleNameOf(rootRel);
  const diagnostics: Diagnostic[] = [];
  const files: CompiledFile[] = [];
  const rejected: RejectedFile[] = [];
  const failed = new Set<string>();
  const unread = new Map<string, ReadError>();
  const seen = new Set<string>([rootModule]);
  const queue: { module: string; path: string; abs: string }[] = [
    { module: rootModule, path: rootRel, abs: rootAbs },
  ];
  let rootError: string | null = null;
  if (rootRel.startsWith("../") || rootRel === ".." || isAbsolute(rootRel)) {
    // Outside the source root a file has no module path: refuse unread.
    queue.length = 0;
    rootError = `the root ${root} is not under the source root ${sourceRoot}`;
  }
  let count = 0;
  let overflow = false;
  for (let q = 0; q < queue.length; q++) {
    const { module, path, abs } = queue[q];
    if (count >= MAX_FILES) {
      failed.add(module);
      if (!overflow) {
        overflow = true;
        diagnostics.push(loadDiagnostic(
          CODES.tooManyFiles,
          null,
          `the compilation exceeds ${MAX_FILES} files; \`${module}\` and later imports are not loaded`,
        ));
      }
      continue;
    }
    count++;
    const read = host.readFile(abs, MAX_FILE_BYTES);
    if (isReadError(read)) unread.set(abs, read);
    if (isReadError(read) && read.error !== "too_large") {
      if (q === 0) {
        rootError = `cannot read ${root}: ${read.message}`;
        diagnostics.push(loadDiagnostic(
          refusalCode(read),
          null,
          `cannot read the root file \`${rootRel}\`: ${read.message}`,
        ));
      } else if (read.error === "not_found") {
        // Reported by the linker as an unknown module, at the import.
      } else {
        failed.add(module);
        diagnostics.push(loadDiagnostic(refusalCode(read), path, refusalMessage(path, read)));
      }
      continue;
    }
    if (isReadError(read) || read.length > MAX_FILE_BYTES) {
      const why = isReadError(read)
        ? read.message
        : `the file is ${read.length} bytes, over the limit of ${MAX_FILE_BYTES}`;
      failed.add(module);
      rejected.push(rejectedFile(path, new Uint8Array(0), why));
      diagnostics.push(loadDiagnostic(CODES.fileTooLarge, path, why));
      continue;
    }
    const bad = firstInvalidUtf8(read);
    if (bad >= 0) {
      failed.add(module);
      rejected.push(rejectedFile(path, read, null));
      diagnostics.push({
        ...loadDiagnostic(CODES.notUtf8, path, `invalid UTF-8 at byte ${bad}`),
        span: { start: bad, end: Math.min(bad + 1, read.length) },
      });
      continue;
    }
    const digest = blake3(read);
    const result = parsed(read, digest, path, options.cache);
    files.push({
      path,
      module,
      bytes: read,
      digest,
      lineIndex: new LineIndex(read),
      parse: result,
    });
    for (const imp of result.tree.imports) {
      if (imp.path.length === 0) continue;
      const segments = imp.path.map((p) => p.text);
      if (segments.some((s) => s === "")) continue;
      const name = segments.join(".");
      if (seen.has(name)) continue;
      seen.add(name);
      const relPath = segments.join("/") + ".nz";
      queue.push({ module: name, path: relPath, abs: join(sourceRoot, ...segments) + ".nz" });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  rejected.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let needsSyntaxRecovery = false;
  for (const f of files) {
    for (const d of f.parse.diagnostics) {
      diagnostics.push(d);
      if (d.severity === "error") needsSyntaxRecovery = true;
    }
  }
  const resolveNames = options.resolve === true;
  const analysis = reusedAnalysis(
    options.reuse,
    analysisKey(sourceRoot, rootRel, rootError, failed, files, diagnostics, resolveNames),
    () =>
      analyze(
        files.map((f) => ({ path: f.path, module: f.module, bytes: f.bytes, tree: f.parse.tree })),
        rootError === null ? rootModule : null,
        failed,
        (semantic) => sortDiagnostics([...diagnostics, ...semantic]),
        { resolve: resolveNames },
      ),
  );
  return {
    root: rootRel,
    sourceRoot,
    files,
    rejected,
    diagnostics: analysis.diagnostics,
    needsSyntaxRecovery,
    // A memoized getter: built on first access, then the same object.
    get model(): SemanticModel {
      return analysis.model;
    },
    rootError,
    unread,
    checked: analysis.checked,
  };
}

/** The code of a file refused unread (a missing import is the linker's N0202). */
function refusalCode(read: ReadError): string {
  switch (read.error) {
    case "not_regular":
      return CODES.notRegularFile;
    case "link_outside":
      return CODES.linkOutside;
    case "too_large":
      return CODES.fileTooLarge;
    case "not_found":
    case "unreadable":
      return CODES.unreadableFile;
  }
}

/** The message of an imported file refused unread, naming the file and why. */
function refusalMessage(path: string, read: ReadError): string {
  switch (read.error) {
    case "not_regular":
      return `\`${path}\` is a ${read.kind}, not a regular file`;
    case "link_outside":
      return `\`${path}\` is a symbolic link, or lies behind one, that does not lead to a file inside the source root`;
    default:
      return `cannot read \`${path}\`: ${read.message}`;
  }
}

function loadDiagnostic(code: string, file: string | null, message: string): Diagnostic {
  return {
    code,
    severity: "error",
    message,
    file,
    span: file === null ? null : { start: 0, end: 0 },
    labels: [],
    help: null,
    fixes: [],
  };
}

/** Everything an analysis depends on, digested: equal keys mean equal analyses. */
function analysisKey(
  sourceRoot: string,
  rootRel: string,
  rootError: string | null,
  failed: ReadonlySet<string>,
  files: readonly CompiledFile[],
  loadDiagnostics: readonly Diagnostic[],
  resolveNames: boolean,
): string {
  const parts: string[] = [
    sourceRoot,
    rootRel,
    rootError ?? "",
    [...failed].sort().join("\n"),
    resolveNames ? "resolve" : "",
  ];
  for (const f of files) parts.push(f.path, f.module, f.digest);
  for (const d of loadDiagnostics) parts.push(JSON.stringify(d));
  return blake3Framed(parts);
}

function reusedAnalysis(
  reuse: AnalysisReuse | undefined,
  key: string,
  run: () => Analysis,
): Analysis {
  if (reuse === undefined) return run();
  if (reuse.last !== null && reuse.last.key === key) return reuse.last.analysis;
  const analysis = run();
  reuse.last = { key, analysis };
  return analysis;
}
