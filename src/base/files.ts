/**
 * The file access policy: a file is read only when its real path lies
 * inside the folder it is read under. Deno's read permission is checked
 * against the path as given, not the file a symbolic link points at (seen
 * on Deno 2.9.6: a worker allowed one folder read /etc/hostname through a
 * link inside it), so the containment check is made here, on real paths.
 *
 * @module
 */
import { isAbsolute, relative, resolve, sep } from "node:path";

/** The real path, or the resolved path when the file does not exist (yet). */
export function realPathOrResolved(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return resolve(path);
  }
}

/** True when `path` is `root` itself or lies below it (both absolute, same form). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** Why a confined read failed. */
export interface ConfinedReadError {
  readonly error: "not_found" | "outside" | "unreadable";
  readonly message: string;
}

/**
 * Reads `path` if its real path lies inside `realRoot` (a real path). A
 * link that leads out is refused before the file it points at is opened.
 */
export function readConfined(realRoot: string, path: string): Uint8Array | ConfinedReadError {
  let real: string;
  try {
    real = Deno.realPathSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { error: "not_found", message: "file not found" };
    }
    return { error: "unreadable", message: error instanceof Error ? error.message : String(error) };
  }
  if (!isWithin(realRoot, real)) {
    return { error: "outside", message: `it resolves outside ${realRoot}` };
  }
  try {
    return Deno.readFileSync(real);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { error: "not_found", message: "file not found" };
    }
    if (error instanceof Deno.errors.IsADirectory) {
      return { error: "not_found", message: "is a directory" };
    }
    return { error: "unreadable", message: error instanceof Error ? error.message : String(error) };
  }
}
