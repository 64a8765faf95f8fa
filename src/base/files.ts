/**
 * The file access policy: one confined read for every file the analysis
 * opens (the loader's modules, the documentation corpus, the repository's
 * compilation roots).
 *
 * A file is read only when (1) its real path lies inside the real folder it
 * is read under, (2) it is a regular file — a FIFO, a device, a socket or a
 * directory is refused by kind, never read and never waited on — and (3) it
 * holds at most the caller's limit: no read goes past limit + 1 bytes, so a
 * huge or endless file costs at most that much.
 *
 * Why it is done here and how. Deno's read permission is checked on the path
 * as given, and Deno 2.9.6 then resolves symbolic links itself before it
 * opens (seen with strace: it reads each component's link, then opens the
 * resolved path), so neither the permission nor an `O_NOFOLLOW` flag stops a
 * link planted inside a root. A check made on a path and a read made later
 * on the same path race: a process writing inside the root can swap the file
 * for a link in between. So the read proves afterwards that the file it holds
 * open is the one it checked, in two parts:
 *
 * - The file itself: the open descriptor's device and inode must equal those
 *   of the checked real path looked up without following a final link
 *   (`lstat`), before the open and again after the read. If the file was a
 *   link when it was opened, the descriptor holds the link's target, and
 *   `lstat` of the path names the link or whatever replaced it — never that
 *   target (unless it is hard-linked into the folder, which the kernel allows
 *   only to someone who may write the target anyway).
 * - The folders on the way: the `lstat` above follows a folder that was
 *   swapped for a link, so each folder whose entries name the way — the root
 *   and every folder down to the file's grandparent — must not change at all
 *   between the resolution of the real path and the end of the read. Any
 *   rename, link or removal in a folder sets its `ctime` to the current time,
 *   and no process can set a `ctime` back (an `mtime` can be, so it is no
 *   proof). So the read first waits until each such folder's last change is
 *   certainly older than the moment the read began, and afterwards requires
 *   every `ctime` unchanged: a swap at any moment in between gives one of
 *   them a later time. Deno 2.9.6 reports a `ctime` in whole seconds (seen:
 *   `.000` where `stat` shows nanoseconds), so "certainly older" means a
 *   second older: a call made within a second of a file being created,
 *   renamed or removed in such a folder waits out the rest of that second,
 *   once per folder. A folder that changes again during the wait is
 *   refused for the rest of the call, so a process that keeps changing a
 *   folder costs a call at most about a second.
 *
 * A read that sees a change is tried again, a few times, then refused.
 *
 * A long-lived reader (the server's worker, the language server) may pass
 * {@link KnownFiles}: the files it read whole before. Such a file is answered
 * from memory when its real path still lies inside the root and `lstat` of
 * that path shows the very file read then, unchanged: the same device,
 * inode, size, `mtime` and `ctime`. Any write to a file sets its `ctime` to
 * the current time and no process can set it back, so an unchanged `ctime`
 * proves unchanged bytes, provided the `ctime` was already certainly past
 * when the bytes were read (a file changed within the same second of a
 * whole-second `ctime` is not remembered, and is read again next time, as
 * git treats a "racily clean" file). The folders on the way need no proof
 * here: whatever the path resolves through, bytes come from memory only when
 * they are those of a file that an earlier confined read proved inside the
 * root, and still are that file's bytes. This turns each unchanged file's
 * dozen system calls into two (measured: the 201 files of the generated
 * 100,000-line program, 44 ms a read of them all, 5 ms with every file known).
 *
 * Every refusal is the same whatever lies outside the root: a link whose
 * target is outside, missing, or a loop, or a path behind such a link, is
 * `link_outside` alike (tests/security/link_existence_test.ts).
 *
 * @module
 */
import type * as NodeFs from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { isWithin } from "./within.ts";

export { isWithin };

/** The real path, or the resolved path when the file does not exist (yet). */
export function realPathOrResolved(path: string): string {
  const real = realPathOf(path);
  return "real" in real ? real.real : resolve(path);
}

/** The real path of `path`, or why it has none; through the read service when there is one. */
function realPathOf(path: string): { readonly real: string } | { readonly error: string } {
  if (service !== null) return service.realPath(path);
  return localRealPath(path);
}

/** {@link ReadService.realPath}, made here. */
export function localRealPath(
  path: string,
): { readonly real: string } | { readonly error: string } {
  try {
    return { real: Deno.realPathSync(path) };
  } catch (error) {
    return { error: describe(error) };
  }
}

/**
 * Another thread that makes this thread's reads: nazm-mcp's analysis holds
 * no read permission of its own, and its sandbox, which holds read
 * permission on the roots and nothing more, reads for it
 * (src/mcp/reads.ts). Each method runs the local function named in its
 * comment there, so a read through the service is the read made here, by
 * the same code, under the sandbox's permission.
 */
export interface ReadService {
  /** {@link localRealPath}. */
  realPath(path: string): { readonly real: string } | { readonly error: string };
  /** {@link serveRead}; `session` numbers the reader's {@link ReadSession}. */
  read(realRoot: string, path: string, limit: number, session: number): ServedRead;
  /** {@link serveReads}. */
  readMany(
    realRoot: string,
    files: readonly (readonly [string, FileStamp | null])[],
    limit: number,
    session: number,
  ): BatchRead[];
}

/**
 * One file of {@link serveReads}: still the known file it was (`"unchanged"`),
 * read, or not read because the batch's bytes were spent (null).
 */
export type BatchRead = "unchanged" | ServedRead | null;

/**
 * How many bytes one batch of reads carries at most: the sandbox holds them
 * at once, and it has no heap limit of its own. The files past it are read
 * one by one, as they are needed.
 */
export const BATCH_BYTES = 64 * 1024 * 1024;

/** A known file without its bytes: what proves it unchanged. */
export type FileStamp = Omit<KnownFile, "bytes">;

/** A read made for another thread: its bytes and, when it may be remembered, as what. */
export type ServedRead =
  | ConfinedReadError
  | {
    readonly bytes: Uint8Array;
    readonly remembered: { readonly real: string; readonly stamp: FileStamp } | null;
  };

let service: ReadService | null = null;

/**
 * Sends every read of this thread through `next` from now on (null: back
 * to this thread's own calls). nazm-mcp's analysis worker sets it once, at
 * its start, before it reads anything.
 */
export function readThrough(next: ReadService | null): void {
  service = next;
}

/**
 * {@link ReadService.read}, made here: {@link readConfined}, with `known`
 * (the files the server's sandbox read for its syntax check), or with a
 * memory of this one file; and what of it the reader may remember.
 */
export function serveRead(
  realRoot: string,
  path: string,
  limit: number,
  session: ReadSession,
  known: KnownFiles = new Map(),
): ServedRead {
  const read = readConfined(realRoot, path, limit, session, known);
  if (!(read instanceof Uint8Array)) return read;
  const real = session.lastReal;
  const file = real === null ? undefined : known.get(real);
  if (real === null || file === undefined || file.bytes !== read) {
    return { bytes: read, remembered: null };
  }
  const { bytes: _, ...stamp } = file;
  return { bytes: read, remembered: { real, stamp } };
}

/**
 * {@link ReadService.readMany}, made here: for each file (a path, with the
 * stamp it had when it was read whole before, or null), `"unchanged"` when
 * {@link readConfined} would answer it from memory now, else its read,
 * until the reads' bytes reach {@link BATCH_BYTES} (then null).
 */
export function serveReads(
  realRoot: string,
  files: readonly (readonly [string, FileStamp | null])[],
  limit: number,
  session: ReadSession,
  known?: KnownFiles,
): BatchRead[] {
  let bytes = 0;
  return files.map(([path, stamp]) => {
    if (stamp !== null) {
      const now = localRealPath(path);
      // Known under its real path then; under another now (a folder on its way
      // became a link) it is read again, as knownBytes would.
      if ("real" in now && now.real === path && unchangedAt(realRoot, path, stamp)) {
        return "unchanged";
      }
    }
    if (bytes >= BATCH_BYTES) return null;
    const read = serveRead(realRoot, path, limit, session, known);
    if ("bytes" in read) bytes += read.bytes.length;
    return read;
  });
}

/** What a path that is not a regular file is. */
export type FileKind =
  | "directory"
  | "named pipe (FIFO)"
  | "character device"
  | "block device"
  | "socket"
  | "special file";

/** Why a confined read refused a file; nothing of it was read. */
export type ConfinedReadError =
  | { readonly error: "not_found"; readonly message: string }
  | { readonly error: "link_outside"; readonly message: string }
  | { readonly error: "not_regular"; readonly kind: FileKind; readonly message: string }
  | { readonly error: "too_large"; readonly message: string }
  | { readonly error: "unreadable"; readonly message: string };

/** A confined reader over one root: a path and a byte limit in, the bytes or a refusal out. */
export type ConfinedReader = (path: string, limit: number) => Uint8Array | ConfinedReadError;

/**
 * Reads under `root` (resolved to its real path on first use; a path under
 * `root` as written is read under the real root); see {@link readConfined}.
 * Make one reader per call: it remembers, for that call only, folders that
 * kept changing.
 */
export function confinedReader(root: string): ConfinedReader {
  let realRoot: string | null = null;
  const session = newReadSession();
  return (path, limit) => {
    if (realRoot === null) {
      const real = realPathOf(root);
      if ("error" in real) {
        return { error: "unreadable", message: `the folder ${root} cannot be read: ${real.error}` };
      }
      realRoot = real.real;
    }
    const rel = relative(resolve(root), resolve(path));
    const under = isWithin(resolve(root), resolve(path)) ? resolve(realRoot, rel) : path;
    return readConfined(realRoot, under, limit, session);
  };
}

/**
 * What the reads of one call share: the folders seen changing even after a
 * wait; and the real path of the last file read here whole, which
 * {@link serveRead} names a remembered file by.
 */
export interface ReadSession {
  readonly churning: Set<string>;
  lastReal: string | null;
}

/** A fresh session, for one call. */
export function newReadSession(): ReadSession {
  return { churning: new Set(), lastReal: null };
}

/** Files read whole before, by real path, with what proves them unchanged (see the module comment). */
export type KnownFiles = Map<string, KnownFile>;

/** A file as a confined read found it: its identity, size and times, and its bytes. */
export interface KnownFile {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly bytes: Uint8Array;
}

/** An empty memory of files, for one long-lived reader. */
export function newKnownFiles(): KnownFiles {
  return new Map();
}

/** Forgets every known file but those at `keep` (real paths): files no longer read. */
export function retainKnownFiles(known: KnownFiles, keep: ReadonlySet<string>): void {
  for (const path of known.keys()) if (!keep.has(path)) known.delete(path);
}

let loadedFs: typeof NodeFs | undefined;

/**
 * node:fs, loaded at the first read made here: loading it cost each thread
 * that imports this layer some 30 ms more (measured on Deno 2.9.6), and
 * nazm-mcp's analysis, which reads only through the sandbox
 * ({@link readThrough}), never needs it. A built-in module loads from the
 * runtime itself: no permission is asked.
 */
function fs(): typeof NodeFs {
  return loadedFs ??= (globalThis as unknown as { process: BuiltinModules }).process
    .getBuiltinModule("node:fs");
}

interface BuiltinModules {
  getBuiltinModule(id: "node:fs"): typeof NodeFs;
}

/**
 * Read-only; non-blocking, so that a FIFO swapped in after the type check
 * opens at once instead of waiting for a writer (it is then refused by the
 * descriptor's own type); no final link followed where the runtime honours
 * it. Windows has neither flag.
 */
function openFlags(): number {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs().constants;
  return O_RDONLY | (O_NONBLOCK ?? 0) | (O_NOFOLLOW ?? 0);
}

/** How often a read is tried when the file or a folder on its way changed under it. */
const ATTEMPTS = 3;

const LINK_OUTSIDE: ConfinedReadError = {
  error: "link_outside",
  message:
    "it is a symbolic link, or lies behind one, that does not lead to a file inside the root",
};

/**
 * Reads `path` if it is a regular file of at most `limit` bytes whose real
 * path lies inside `realRoot` (a real path), proving that the bytes come from
 * that file (see the module comment). Never blocks on a FIFO or a device.
 * With `known`, an unchanged file read before is answered from it, and a
 * file read now is remembered in it.
 */
export function readConfined(
  realRoot: string,
  path: string,
  limit: number,
  session: ReadSession = newReadSession(),
  known: KnownFiles | null = null,
): Uint8Array | ConfinedReadError {
  if (service !== null) return readServed(service, realRoot, path, limit, session, known);
  session.lastReal = null;
  if (known !== null) {
    const remembered = knownBytes(realRoot, path, limit, session, known);
    if (remembered !== null) return remembered;
  }
  let why = "";
  let waited = false;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const outcome = readOnce(realRoot, path, limit, session, known);
    if (!(outcome instanceof Changed)) return outcome;
    why = outcome.why;
    if (outcome.folder !== null) {
      if (waited || session.churning.has(outcome.folder)) {
        session.churning.add(outcome.folder);
        break;
      }
      waited = true;
      sleep(outcome.waitMs);
    }
  }
  return { error: "unreadable", message: `it kept changing while it was read (${why})` };
}

/** Why one attempt saw a change; for a folder that just changed, which and how long to wait. */
class Changed {
  constructor(
    readonly why: string,
    readonly folder: string | null = null,
    readonly waitMs: number = 0,
  ) {}
}

function changed(why: string): Changed {
  return new Changed(why);
}

type Identity = { readonly dev: bigint; readonly ino: bigint };

function sameFile(a: Identity, b: Identity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * The bytes of `path` from `known`, when its real path lies inside the root
 * and is the remembered file, unchanged; null when it must be read.
 */
function knownBytes(
  realRoot: string,
  path: string,
  limit: number,
  session: ReadSession,
  known: KnownFiles,
): Uint8Array | null {
  const real = localRealPath(path);
  if (!("real" in real)) return null;
  const file = known.get(real.real);
  if (file === undefined || file.bytes.length > limit) return null;
  if (!unchangedAt(realRoot, real.real, file)) return null;
  session.lastReal = real.real;
  return file.bytes;
}

/**
 * Whether `real` (a real path) lies inside the root and `lstat` shows there
 * the file of `stamp`, unchanged.
 */
function unchangedAt(realRoot: string, real: string, stamp: FileStamp): boolean {
  if (!isWithin(realRoot, real)) return false;
  let now: NodeFs.BigIntStats;
  try {
    now = fs().lstatSync(real, { bigint: true });
  } catch {
    return false;
  }
  // A mismatch keeps the entry: a path seen through a folder swapped for a
  // moment is not the file changing, and a file that did change never
  // matches again (its ctime moved on); the caller forgets files no longer
  // read (retainKnownFiles).
  return now.isFile() && sameFile(now, stamp) && now.size === stamp.size &&
    now.mtimeNs === stamp.mtimeNs && now.ctimeNs === stamp.ctimeNs;
}

/** Numbers of sessions, for the read service, which keeps their state on its side. */
const sessionNumbers = new WeakMap<ReadSession, number>();
let nextSession = 1;

/**
 * What a session's first read fetched for it in one exchange with the read
 * service, by path: the known files' answers and the hinted files' reads
 * (see {@link readServed}).
 */
const fetched = new WeakMap<ReadSession, {
  readonly known: KnownFiles | null;
  readonly realRoot: string;
  readonly limit: number;
  readonly reads: Map<string, BatchRead>;
}>();

/** Files the next session through the service is likely to read (see {@link hintReads}). */
let hinted: readonly string[] = [];

/**
 * Names files the next session through the read service that keeps known
 * files will likely read (nazm-mcp's first analysis: the files its
 * sandbox's syntax check found the root reaches), so that its first read
 * fetches them all at once.
 */
export function hintReads(paths: readonly string[]): void {
  hinted = paths;
}

/**
 * {@link readConfined} through the read service. A session's first read
 * asks, in one exchange, for every file the session will likely read: the
 * known files, each answered "unchanged" when it still is the very file
 * read then (what {@link knownBytes} would prove file by file during the
 * session), else read again; and the hinted files, read (a session is one
 * call, and its reads made at its start are as true as reads made during
 * it). One exchange costs about a millisecond on the 2-core machines, each
 * file's own exchange as much: for the 201 files of the generated
 * 100,000-line program, some 500 ms one by one. A file not fetched so, or
 * reached under another path than the one fetched (a link inside the
 * root), or read with another limit, is read alone.
 */
function readServed(
  service: ReadService,
  realRoot: string,
  path: string,
  limit: number,
  session: ReadSession,
  known: KnownFiles | null,
): Uint8Array | ConfinedReadError {
  let number = sessionNumbers.get(session);
  if (number === undefined) sessionNumbers.set(session, number = nextSession++);
  let batch = fetched.get(session);
  if (batch === undefined || batch.known !== known || batch.realRoot !== realRoot) {
    const files: [string, FileStamp | null][] = [];
    for (const [real, { bytes: _, ...stamp }] of known ?? []) files.push([real, stamp]);
    // The hints are the compilation's files: for a session that keeps known
    // files (the analysis' loader), not for one of the documentation's.
    if (known !== null) {
      for (const hint of hinted) if (!known.has(hint)) files.push([hint, null]);
      hinted = [];
    }
    const reads = new Map<string, BatchRead>();
    if (files.length > 0) {
      const answers = service.readMany(realRoot, files, limit, number);
      files.forEach(([file], i) => reads.set(file, answers[i]));
    }
    fetched.set(session, batch = { known, realRoot, limit, reads });
  }
  const early = batch.limit === limit ? batch.reads.get(path) : undefined;
  batch.reads.delete(path);
  if (early === "unchanged") {
    const file = known?.get(path);
    if (file !== undefined && file.bytes.length <= limit) return file.bytes;
  }
  const served = early !== undefined && early !== null && early !== "unchanged"
    ? early
    : service.read(realRoot, path, limit, number);
  if (!("bytes" in served)) return served;
  if (known !== null && served.remembered !== null) {
    const { real, stamp } = served.remembered;
    known.set(real, { ...stamp, bytes: served.bytes });
  }
  return served.bytes;
}

/**
 * Remembers a file read whole, when its times prove that any later write
 * shows: unchanged during the read, and last changed certainly before the
 * read began (`started`, see {@link folderTimes} on whole-second times).
 */
function remember(
  known: KnownFiles,
  real: string,
  open: NodeFs.BigIntStats,
  after: NodeFs.BigIntStats,
  started: bigint,
  bytes: Uint8Array,
): void {
  const unchanged = after.size === open.size && after.mtimeNs === open.mtimeNs &&
    after.ctimeNs === open.ctimeNs && BigInt(bytes.length) === open.size;
  // Only the ctime: an mtime can be set to anything, and proves nothing.
  const settled = latestMoment(open.ctimeNs) + CLOCK_SLACK < started;
  if (!unchanged || !settled) return;
  known.set(real, {
    dev: open.dev,
    ino: open.ino,
    size: open.size,
    mtimeNs: open.mtimeNs,
    ctimeNs: open.ctimeNs,
    bytes,
  });
}

function readOnce(
  realRoot: string,
  path: string,
  limit: number,
  session: ReadSession,
  known: KnownFiles | null,
): Uint8Array | ConfinedReadError | Changed {
  const started = BigInt(Date.now()) * MS;
  let real: string;
  try {
    real = Deno.realPathSync(path);
  } catch (error) {
    return unresolved(realRoot, path, error);
  }
  if (!isWithin(realRoot, real)) return LINK_OUTSIDE;
  const folders = foldersOnTheWay(realRoot, real);
  const churning = folders.find((folder) => session.churning.has(folder));
  if (churning !== undefined) {
    return new Changed("a folder on its way keeps changing", churning);
  }
  const before = folderTimes(folders, started);
  if (before instanceof Changed) return before;

  // The checked file, by type and size, before anything is opened: a device
  // or a FIFO at rest is never opened, a huge file never read.
  let checked: NodeFs.BigIntStats;
  try {
    checked = fs().lstatSync(real, { bigint: true });
  } catch (error) {
    return changed(`lstat: ${describe(error)}`);
  }
  if (checked.isSymbolicLink()) return changed("a link appeared");
  if (!checked.isFile()) return notRegular(kindOf(checked));
  if (checked.size > BigInt(limit)) return tooLarge(`is ${checked.size} bytes`, limit);

  let fd: number;
  try {
    fd = fs().openSync(real, openFlags());
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT" || code === "ELOOP" || code === "ENOTDIR") {
      return changed(`open: ${code}`);
    }
    return unreadable(error);
  }
  try {
    const open = fs().fstatSync(fd, { bigint: true });
    if (!sameFile(open, checked)) return changed("another file was opened");
    // Same inode as a regular file checked a moment ago: not a FIFO or a device.
    if (!open.isFile()) return notRegular(kindOf(open));
    const bytes = readAtMost(fd, Number(open.size), limit);
    if (bytes.length > limit) return tooLarge("grew", limit);
    let after: NodeFs.BigIntStats;
    try {
      after = fs().lstatSync(real, { bigint: true });
    } catch (error) {
      return changed(`after the read: ${describe(error)}`);
    }
    if (!sameFile(after, open)) return changed("it was replaced");
    const later = folderTimes(folders, null);
    if (later instanceof Changed || later.some((time, i) => time !== before[i])) {
      return changed("a folder on its way changed");
    }
    if (known !== null) remember(known, real, open, after, started, bytes);
    session.lastReal = real;
    return bytes;
  } catch (error) {
    return unreadable(error);
  } finally {
    fs().closeSync(fd);
  }
}

const MS = 1_000_000n;
const SECOND = 1_000_000_000n;
/** How far the kernel's file-time clock may lag the wall clock (one tick is 1–10 ms). */
const CLOCK_SLACK = 20n * MS;

/**
 * The folders whose entries lead from `realRoot` to `real`'s folder: the root
 * and each folder down to the file's grandparent (the file's own folder
 * names the file, which the identity check covers).
 */
function foldersOnTheWay(realRoot: string, real: string): string[] {
  const segments = relative(realRoot, real).split(sep);
  const folders: string[] = [];
  for (let depth = 0; depth + 2 <= segments.length; depth++) {
    folders.push(resolve(realRoot, ...segments.slice(0, depth)));
  }
  return folders;
}

/**
 * Each folder's `ctime`. With `started` (the wall clock before the real path
 * was resolved): a folder whose last change may be later than shortly before
 * then is a change to wait out, so that any later change is sure to show as
 * a new `ctime`. A `ctime` in whole seconds (as Deno 2.9.6 reports it) may
 * stand for any moment of that second.
 */
function folderTimes(folders: readonly string[], started: bigint | null): bigint[] | Changed {
  const times: bigint[] = [];
  for (const folder of folders) {
    let time: bigint;
    try {
      time = fs().lstatSync(folder, { bigint: true }).ctimeNs;
    } catch (error) {
      return changed(`a folder on its way: ${describe(error)}`);
    }
    if (started !== null) {
      const latest = latestMoment(time);
      if (latest + CLOCK_SLACK > started) {
        const waitMs = Number((latest + CLOCK_SLACK - started) / MS) + 1;
        return new Changed("a folder on its way just changed", folder, waitMs);
      }
    }
    times.push(time);
  }
  return times;
}

/**
 * The latest moment a file time may stand for: a time in whole seconds (as
 * Deno 2.9.6 reports a `ctime`) may be any moment of that second.
 */
function latestMoment(time: bigint): bigint {
  return time % SECOND === 0n ? time + SECOND : time;
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` milliseconds (the loader is synchronous on purpose). */
function sleep(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms);
}

/**
 * Reads a file named on a command line (a baseline for `nazm delta`):
 * anything a regular file is refused by kind without being read or waited
 * on, and no more than `limit + 1` bytes are read. Not confined to a root:
 * the user named it.
 */
export function readRegularFile(path: string, limit: number): Uint8Array | ConfinedReadError {
  let fd: number;
  try {
    const { O_RDONLY, O_NONBLOCK } = fs().constants;
    fd = fs().openSync(path, O_RDONLY | (O_NONBLOCK ?? 0));
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return { error: "not_found", message: "file not found" };
    return unreadable(error);
  }
  try {
    const open = fs().fstatSync(fd, { bigint: true });
    if (!open.isFile()) return notRegular(kindOf(open));
    if (open.size > BigInt(limit)) return tooLarge(`is ${open.size} bytes`, limit);
    const bytes = readAtMost(fd, Number(open.size), limit);
    return bytes.length > limit ? tooLarge("grew", limit) : bytes;
  } catch (error) {
    return unreadable(error);
  } finally {
    fs().closeSync(fd);
  }
}

/**
 * Reads up to `limit + 1` bytes from `fd`, expecting `expected` (the size
 * the descriptor reported); a file that grows is read on, up to the bound.
 */
function readAtMost(fd: number, expected: number, limit: number): Uint8Array {
  let buffer = new Uint8Array(Math.min(expected, limit) + 1);
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (buffer.length > limit) break;
      const grown = new Uint8Array(Math.min(buffer.length * 2, limit + 1));
      grown.set(buffer);
      buffer = grown;
    }
    const n = fs().readSync(fd, buffer, filled, buffer.length - filled, null);
    if (n === 0) break;
    filled += n;
  }
  return filled === buffer.length ? buffer : buffer.slice(0, filled);
}

/**
 * The refusal for a path whose real path could not be resolved: `not_found`
 * only when the nearest existing entry on its way is a real folder inside the
 * root; a dangling or looping link, or a link on the way, is `link_outside`
 * whether or not anything exists where it points.
 */
function unresolved(realRoot: string, path: string, cause: unknown): ConfinedReadError {
  for (let at = resolve(path); isWithin(realRoot, at); at = dirname(at)) {
    let entry: NodeFs.Stats;
    try {
      entry = fs().lstatSync(at);
    } catch {
      if (at === realRoot) break;
      continue;
    }
    if (entry.isSymbolicLink()) return LINK_OUTSIDE;
    let real: string;
    try {
      real = Deno.realPathSync(at);
    } catch {
      return LINK_OUTSIDE;
    }
    if (!isWithin(realRoot, real)) return LINK_OUTSIDE;
    if (at === resolve(path)) return unreadable(cause);
    return { error: "not_found", message: "file not found" };
  }
  return { error: "not_found", message: "file not found" };
}

function kindOf(stats: NodeFs.BigIntStats): FileKind {
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "named pipe (FIFO)";
  if (stats.isCharacterDevice()) return "character device";
  if (stats.isBlockDevice()) return "block device";
  if (stats.isSocket()) return "socket";
  return "special file";
}

function notRegular(kind: FileKind): ConfinedReadError {
  return { error: "not_regular", kind, message: `it is a ${kind}, not a regular file` };
}

function tooLarge(size: `is ${bigint} bytes` | "grew", limit: number): ConfinedReadError {
  return {
    error: "too_large",
    message: size === "grew"
      ? `the file grew over the limit of ${limit} bytes while it was read`
      : `the file ${size}, over the limit of ${limit}`,
  };
}

function unreadable(error: unknown): ConfinedReadError {
  return { error: "unreadable", message: describe(error) };
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: unknown } | null)?.code as string | undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
