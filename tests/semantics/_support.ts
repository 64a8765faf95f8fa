/**
 * Test support for the semantics layer: multi-module cases in one file
 * with `// @file: path` markers (the first file is the root), and an
 * in-memory {@link SourceHost} that counts reads.
 *
 * Directives, each on its own line after the files:
 * - `// @synthetic: path bytes` — a file of that many spaces;
 * - `// @unreadable: path` — reading it fails (not a "not found");
 * - `// @fifo: path` — it is a named pipe, refused unread (`not_regular`);
 * - `// @link_outside: path` — it is a link out of the source root, refused unread;
 * - `// @chain: n` — modules `gen/m0.nz` … `gen/m{n-1}.nz`, each calling the next.
 *
 * @module
 */
import {
  type Compilation,
  loadCompilation,
  type ReadError,
  type SourceHost,
} from "../../src/semantics/mod.ts";

export const ROOT_DIR = "/virtual/src";

export interface CaseFiles {
  /** Relative path → bytes, the root first. */
  readonly files: Map<string, Uint8Array>;
  readonly root: string;
  /** Relative path → why reading it is refused. */
  readonly refused: Map<string, ReadError>;
}

const REFUSALS: Record<string, ReadError> = {
  unreadable: { error: "unreadable", message: "permission denied" },
  fifo: {
    error: "not_regular",
    kind: "named pipe (FIFO)",
    message: "it is a named pipe (FIFO), not a regular file",
  },
  link_outside: { error: "link_outside", message: "it is a symbolic link out of the root" },
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Splits a case file into its modules. */
export function splitCase(bytes: Uint8Array): CaseFiles {
  const text = decoder.decode(bytes);
  const files = new Map<string, Uint8Array>();
  const refused = new Map<string, ReadError>();
  if (!text.startsWith("// @file:")) {
    files.set("main.nz", bytes);
    return { files, root: "main.nz", refused };
  }
  let current: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (current !== null) {
      files.set(current, encoder.encode(lines.join("\n").replace(/\n*$/, "\n")));
    }
    lines = [];
  };
  let root: string | null = null;
  for (const line of text.split("\n")) {
    const file = /^\/\/ @file: (\S+)$/.exec(line);
    const synthetic = /^\/\/ @synthetic: (\S+) (\d+)$/.exec(line);
    const bad = /^\/\/ @(unreadable|fifo|link_outside): (\S+)$/.exec(line);
    const chain = /^\/\/ @chain: (\d+)$/.exec(line);
    if (file !== null) {
      flush();
      current = file[1];
      root ??= current;
    } else if (synthetic !== null) {
      flush();
      current = null;
      files.set(synthetic[1], new Uint8Array(Number(synthetic[2])).fill(0x20));
    } else if (bad !== null) {
      flush();
      current = null;
      refused.set(bad[2], REFUSALS[bad[1]]);
    } else if (chain !== null) {
      flush();
      current = null;
      const n = Number(chain[1]);
      for (let i = 0; i < n; i++) {
        files.set(
          `gen/m${i}.nz`,
          encoder.encode(`import gen.m${i + 1}\n\npub fn f() -> Int {\n  m${i + 1}.f()\n}\n`),
        );
      }
    } else lines.push(line);
  }
  flush();
  return { files, root: root!, refused };
}

/** An in-memory host over a case's files; `reads` counts reads per absolute path. */
export function memoryHost(c: CaseFiles): SourceHost & { reads: Map<string, number> } {
  const reads = new Map<string, number>();
  return {
    reads,
    readFile(path: string) {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      const rel = path.startsWith(ROOT_DIR + "/") ? path.slice(ROOT_DIR.length + 1) : null;
      const refusal = rel === null ? undefined : c.refused.get(rel);
      if (refusal !== undefined) {
        return refusal;
      }
      const bytes = rel === null ? undefined : c.files.get(rel);
      return bytes ?? { error: "not_found", message: "file not found" };
    },
  };
}

/** Loads a case from its files. */
export function loadCase(c: CaseFiles, options: { cache?: Map<string, never> } = {}): Compilation {
  return loadCompilation(`${ROOT_DIR}/${c.root}`, {
    sourceRoot: ROOT_DIR,
    host: memoryHost(c),
    cache: options.cache,
  });
}

/** Loads the case in a file on disk. */
export function loadCaseFile(path: string): Compilation {
  return loadCase(splitCase(Deno.readFileSync(path)));
}

/** The files a case spells out (`// @file:`), in its order: what its golden shows. */
export function writtenFiles(bytes: Uint8Array): { path: string; bytes: Uint8Array }[] {
  const text = decoder.decode(bytes);
  const files = splitCase(bytes).files;
  const paths = text.startsWith("// @file:")
    ? [...text.matchAll(/^\/\/ @file: (\S+)$/gm)].map((m) => m[1])
    : ["main.nz"];
  return paths.map((path) => ({ path, bytes: files.get(path)! }));
}
