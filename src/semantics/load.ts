/**
 * Loading: the I/O half of a compilation. It resolves the root and the
 * source root, reads a file by the one confined read of src/base/files.ts
 * (a regular file inside the source root, at most its limit, proved to be
 * the file that was checked), enforces the size limit and decodes UTF-8.
 * It never parses and never follows an import: {@link compile} asks for
 * each module path it needs, once, through the {@link Sources} it is given.
 *
 * `Sources` is the seam between I/O and compilation: the disk
 * ({@link openSources}), or an editor's buffers over it
 * ({@link withBuffers}), are both just contents by path.
 *
 * Synchronous on purpose: reads are cheap and the hot path stays free of
 * awaits.
 *
 * @module
 */
import { isUtf8 } from "node:buffer";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import {
  type ConfinedReadError,
  DIAGNOSTICS,
  type KnownFiles,
  type LineIndex,
  newReadSession,
  readConfined,
  realPathOrResolved,
} from "../base/mod.ts";

/** Why a file could not be read (nothing of it was). */
export type ReadError = ConfinedReadError;

/** Why a file within the size limit could not be read. */
export type UnreadError = Exclude<ReadError, { readonly error: "too_large" }>;

/** How files are read: the disk for the CLI and server, memory in tests. */
export interface SourceHost {
  /**
   * The file's bytes, or why it was not read. A host may refuse a file over
   * `limit` bytes unread (`too_large`); the loader refuses a longer answer too.
   */
  readFile(absolutePath: string, limit: number): Uint8Array | ReadError;
}

/**
 * What was learnt of bytes seen before, by the very array: their digest and
 * line index, and that they are UTF-8 (only text gets an entry). A
 * long-lived caller's unchanged files come back as the same array (the
 * confined read's known files, an editor's unchanged buffer) and are then
 * neither validated, hashed nor indexed again. The arrays are never written
 * to.
 */
export type FileMemo = WeakMap<
  Uint8Array,
  { readonly digest: string; readonly lineIndex: LineIndex }
>;

/** At most 8 MiB per source file. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** At most 10,000 files per compilation. */
export const MAX_FILES = 10_000;

/** One file's contents as a compilation sees them, or why there are none. */
export type SourceRead =
  /** Read, within the limit, valid UTF-8. */
  | { readonly kind: "text"; readonly bytes: Uint8Array }
  /** Read, within the limit, but not UTF-8: `offset` is the first bad byte. */
  | { readonly kind: "not_utf8"; readonly bytes: Uint8Array; readonly offset: number }
  /** Over the size limit, never read past it: `why` gives its size and the limit. */
  | { readonly kind: "too_large"; readonly why: string; readonly error: ReadError | null }
  /** Not read at all (missing, not a regular file, a link outside, unreadable). */
  | { readonly kind: "unread"; readonly error: UnreadError };

/**
 * The one input of {@link compile}: where the source root is, which file is
 * the root, and the contents of any file under the root by its relative path.
 */
export interface Sources {
  /** Absolute. */
  readonly sourceRoot: string;
  /** The root file relative to the source root, `/` separators. */
  readonly root: string;
  /** The root as the caller named it, for messages about it. */
  readonly rootName: string;
  /** Set when the root lies outside the source root: nothing is read then. */
  readonly rootOutside: string | null;
  /** The absolute path of a relative one (the key of `Compilation.unread`). */
  absolute(path: string): string;
  /** The contents of the file at `path` (relative); each path is asked for once. */
  read(path: string): SourceRead;
}

export interface SourceOptions {
  /** Imports resolve under it; default: the root file's folder. */
  readonly sourceRoot?: string;
  /** Default: {@link diskHost} under the source root. */
  readonly host?: SourceHost;
  /** For the default host: files read before, answered from memory while unchanged. */
  readonly known?: KnownFiles;
  /** Bytes already known to be UTF-8 are not validated again. */
  readonly memo?: FileMemo;
}

/**
 * Reads the disk under a source root (a real path) through the one confined
 * read (src/base/files.ts): a regular file inside it, at most `limit` bytes,
 * proved to be the file that was checked; anything else refused unread. One
 * host per compilation (its reads share one session). With `known` (kept by
 * a long-lived caller), an unchanged file read before is not read again.
 */
export function diskHost(realSourceRoot: string, known: KnownFiles | null = null): SourceHost {
  const session = newReadSession();
  return {
    readFile: (path, limit) => readConfined(realSourceRoot, path, limit, session, known),
  };
}

/**
 * The sources of the compilation of `root` (a path, absolute or relative to
 * the working directory), read through `options.host`. On disk, paths are
 * real: the confinement check compares real paths, and a root reached
 * through a link names its files as they really are.
 */
export function openSources(root: string, options: SourceOptions = {}): Sources {
  const real = options.host === undefined ? realPathOrResolved : (path: string) => resolve(path);
  const rootAbs = real(root);
  const sourceRoot = real(options.sourceRoot ?? dirname(rootAbs));
  const host = options.host ?? diskHost(sourceRoot, options.known ?? null);
  const rootRel = toSlashes(relative(sourceRoot, rootAbs));
  // Outside the source root a file has no module path: refuse it unread.
  const outside = rootRel.startsWith("../") || rootRel === ".." || isAbsolute(rootRel);
  const absolute = (path: string) =>
    path === rootRel ? rootAbs : join(sourceRoot, ...path.split("/"));
  return {
    sourceRoot,
    root: rootRel,
    rootName: root,
    rootOutside: outside ? `the root ${root} is not under the source root ${sourceRoot}` : null,
    absolute,
    read: (path) => decoded(host.readFile(absolute(path), MAX_FILE_BYTES), options.memo),
  };
}

/**
 * `sources` with some files' contents replaced by an editor's buffers
 * (relative path → bytes); every other path reads through to `sources`.
 * The buffers pass the same limit and decoding as a file on disk.
 */
export function withBuffers(sources: Sources, buffers: ReadonlyMap<string, Uint8Array>): Sources {
  return {
    ...sources,
    read: (path) => {
      const buffer = buffers.get(path);
      return buffer === undefined ? sources.read(path) : decoded(buffer);
    },
  };
}

/** Applies the size limit and the UTF-8 check to what a host answered. */
function decoded(read: Uint8Array | ReadError, memo?: FileMemo): SourceRead {
  if (!(read instanceof Uint8Array)) {
    if (read.error === "too_large") return { kind: "too_large", why: read.message, error: read };
    return { kind: "unread", error: read };
  }
  if (read.length > MAX_FILE_BYTES) {
    const why = DIAGNOSTICS.fileTooLarge.text.overLimit(read.length, MAX_FILE_BYTES);
    return { kind: "too_large", why, error: null };
  }
  if (memo?.has(read)) return { kind: "text", bytes: read };
  const offset = firstInvalidUtf8(read);
  return offset >= 0 ? { kind: "not_utf8", bytes: read, offset } : { kind: "text", bytes: read };
}

/** `geometry/shapes.nz` → `geometry.shapes`. */
export function moduleNameOf(relativePath: string): string {
  return relativePath.replace(/\.nz$/, "").split("/").join(".");
}

/** `geometry.shapes` → `geometry/shapes.nz`. */
export function modulePath(moduleName: string): string {
  return moduleName.split(".").join("/") + ".nz";
}

function toSlashes(path: string): string {
  return path.replaceAll("\\", "/");
}

/** The offset of the first byte that is not part of valid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  // Validated natively, without building the text a fatal TextDecoder
  // would (measured on the 100,000-line program's 2.55 MB: 0.8 ms against
  // 15 to 19 ms, and the strings left for the collector).
  if (isUtf8(bytes)) return -1;
  // Only on failure: find the place, sequence by sequence.
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes[i]);
    if (n === 0 || i + n > bytes.length) return i;
    for (let k = 1; k < n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    const cp = codePoint(bytes, i, n);
    const min = n === 2 ? 0x80 : n === 3 ? 0x800 : n === 4 ? 0x10000 : 0;
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n;
  }
  return bytes.length;
}

/** The length of the UTF-8 sequence a lead byte starts, or 0 for a byte no sequence starts with. */
function sequenceLength(b: number): number {
  return b < 0x80
    ? 1
    : (b & 0xe0) === 0xc0
    ? 2
    : (b & 0xf0) === 0xe0
    ? 3
    : (b & 0xf8) === 0xf0
    ? 4
    : 0;
}

function codePoint(bytes: Uint8Array, i: number, n: number): number {
  const b = bytes[i];
  if (n === 1) return b;
  const tail = (k: number) => bytes[i + k] & 0x3f;
  if (n === 2) return ((b & 0x1f) << 6) | tail(1);
  if (n === 3) return ((b & 0x0f) << 12) | (tail(1) << 6) | tail(2);
  return ((b & 0x07) << 18) | (tail(1) << 12) | (tail(2) << 6) | tail(3);
}
