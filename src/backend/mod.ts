/**
 * The back end's public entry: a checked, error-free compilation lowered to
 * one JavaScript ES module with the runtime inside, and the worker that
 * runs such a module with no permission at all.
 *
 * @module
 */
import type { Compilation } from "../semantics/mod.ts";
import { assembleModule, type Entry } from "./assemble.ts";
import type { IntLiterals } from "./emit.ts";
import { programView } from "./checked.ts";

export type { Entry } from "./assemble.ts";
export type { IntLiterals } from "./emit.ts";
export {
  outcomeStatus,
  ProgramWorker,
  programWorkerOptions,
  type Report,
  type RunLimits,
  type RunOutcome,
  STOP_GRACE_MS,
} from "./host.ts";
export {
  MAX_PROGRAM_STATUS,
  PRELUDE,
  renderReport,
  RUNTIME_ERRORS,
  STACK_FRAMES,
} from "./runtime.js";

/** A test of the compilation, as `nazm test` lists it. */
export interface TestEntry {
  /** `module.path::name`. */
  readonly key: string;
  readonly name: string;
  /** The file (relative to the source root) and the byte offset of the test's name. */
  readonly file: string;
  readonly offset: number;
}

/**
 * The module for a compilation loaded with `resolve: true` and without
 * errors: `standalone` runs `main` as a process (`nazm build`), `worker`
 * serves `main` and, with `tests`, the tests, to {@link ProgramWorker}.
 */
export function generateModule(
  compilation: Compilation,
  options: {
    readonly entry: Entry;
    readonly tests?: boolean;
    /** Only for bench/'s measurement of Int representations. */
    readonly intLiterals?: IntLiterals;
  },
): string {
  return assembleModule(programView(compilation), {
    entry: options.entry,
    tests: options.tests ?? false,
    intLiterals: options.intLiterals,
  });
}

/** The program's entry point, `main` of the root module: its key and the place of its name. */
export function entryOf(
  compilation: Compilation,
): { readonly key: string; readonly file: string; readonly offset: number } | null {
  const view = programView(compilation);
  if (view.main === null) return null;
  return {
    key: view.main.key,
    file: view.files[view.main.file].path,
    offset: view.main.node.name.start,
  };
}

/** The tests of a compilation loaded with `resolve: true`, in the order the module numbers them. */
export function testsOf(compilation: Compilation): TestEntry[] {
  const view = programView(compilation);
  return view.tests.map((t) => ({
    key: t.key,
    name: t.name,
    file: view.files[t.file].path,
    offset: t.node.name.start,
  }));
}
