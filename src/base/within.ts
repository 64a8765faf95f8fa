/**
 * Path containment, apart from files.ts so that what loads before the
 * analysis starts (launch.ts) needs neither node:fs nor hash-wasm.
 *
 * @module
 */
import { isAbsolute, relative, sep } from "node:path";

/** True when `path` is `root` itself or lies below it (both absolute, same form). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}
