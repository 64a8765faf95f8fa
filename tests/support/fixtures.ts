/**
 * Temporary copies of example programs, for tests that edit a program
 * between two calls. Each copy is a fresh folder under the system temp dir;
 * `dispose` removes it.
 *
 * @module
 */
import { join } from "node:path";

/** The repository's root folder. */
export const REPO = join(import.meta.dirname!, "..", "..");

export interface ExampleCopy {
  /** The copy's folder (its source root). */
  readonly dir: string;
  /** The copy's root file. */
  readonly root: string;
  /** Replaces `from` (which must occur exactly once) by `to` in a file of the copy. */
  edit(file: string, from: string, to: string): void;
  read(file: string): string;
  write(file: string, text: string): void;
  dispose(): void;
}

function copyTree(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory) copyTree(source, target);
    else if (entry.isFile) Deno.copyFileSync(source, target);
  }
}

/** Copies examples/<name> into a new temporary folder. */
export function copyExample(name: string, rootFile = "main.nz"): ExampleCopy {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: `nazm-${name}-` }));
  copyTree(join(REPO, "examples", name), dir);
  return copyAt(dir, rootFile);
}

/** Writes a program (relative path → text) into a new temporary folder. */
export function tempProgram(files: Record<string, string>, rootFile = "main.nz"): ExampleCopy {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-program-" }));
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    Deno.mkdirSync(join(target, ".."), { recursive: true });
    Deno.writeTextFileSync(target, text);
  }
  return copyAt(dir, rootFile);
}

function copyAt(dir: string, rootFile: string): ExampleCopy {
  const read = (file: string) => Deno.readTextFileSync(join(dir, file));
  const write = (file: string, text: string) => Deno.writeTextFileSync(join(dir, file), text);
  return {
    dir,
    root: join(dir, rootFile),
    read,
    write,
    edit(file, from, to) {
      const text = read(file);
      const at = text.indexOf(from);
      if (at < 0 || text.indexOf(from, at + 1) >= 0) {
        throw new Error(`${file}: expected exactly one ${JSON.stringify(from)}`);
      }
      write(file, text.slice(0, at) + to + text.slice(at + from.length));
    },
    dispose() {
      Deno.removeSync(dir, { recursive: true });
    },
  };
}
