/**
 * The golden runner: one case a file (or a folder), its expected JSON beside
 * it as `<case>.json`. `NAZM_GOLDEN_WRITE=1` rewrites the expectations
 * instead of comparing, after a reviewed change.
 *
 * Usage, in any test file:
 *
 * ```ts
 * goldenTest("syntax golden", "tests/golden/syntax", ".nz", (path, text) => ({ ... }));
 * ```
 *
 * @module
 */
/** Options for {@link goldenTest}. */
export interface GoldenOptions {
  /** Treat each sub-folder whose name ends with the extension as one case (multi-module cases). */
  readonly folders?: boolean;
}

/** Computes a case's actual value from its path and (for a file case) its text. */
export type GoldenRun = (path: string, text: string) => unknown | Promise<unknown>;

/** True when expectations are rewritten rather than compared. */
export function goldenWriteMode(): boolean {
  return Deno.env.get("NAZM_GOLDEN_WRITE") === "1";
}

/** The cases in `dir`: paths of files (or folders) ending with `ext`, sorted. */
export function goldenCases(dir: string, ext: string, options: GoldenOptions = {}): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const wanted = options.folders ? entry.isDirectory : entry.isFile;
    if (wanted && entry.name.endsWith(ext)) out.push(`${dir}/${entry.name}`);
  }
  return out.sort();
}

/** The expectation file of a case: `<case without ext>.json`. */
export function expectationPath(casePath: string, ext: string): string {
  return casePath.slice(0, casePath.length - ext.length) + ".json";
}

/** Stable JSON: 2-space indent, keys in the order the value built them, bigints as strings, final newline. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v), 2) +
    "\n";
}

/**
 * Compares `actual` with the case's expectation file, or writes it in
 * write mode. A missing expectation fails (outside write mode).
 */
export function checkGolden(casePath: string, ext: string, actual: unknown): void {
  const expected = expectationPath(casePath, ext);
  const text = stableJson(actual);
  if (goldenWriteMode()) {
    let old: string | null = null;
    try {
      old = Deno.readTextFileSync(expected);
    } catch {
      old = null;
    }
    if (old !== text) Deno.writeTextFileSync(expected, text);
    return;
  }
  let want: string;
  try {
    want = Deno.readTextFileSync(expected);
  } catch {
    throw new Error(
      `golden expectation ${expected} is missing; run with NAZM_GOLDEN_WRITE=1 to create it`,
    );
  }
  if (text !== want) {
    throw new Error(
      `golden mismatch for ${casePath} (NAZM_GOLDEN_WRITE=1 rewrites it)\n${
        firstDifference(want, text)
      }`,
    );
  }
}

/** The first differing line, with its neighbours: enough to see what changed. */
function firstDifference(want: string, got: string): string {
  const a = want.split("\n");
  const b = got.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 2);
  const show = (lines: string[]) => lines.slice(from, i + 3).map((l) => "  " + l).join("\n");
  return `at line ${i + 1}\nexpected:\n${show(a)}\nactual:\n${show(b)}`;
}

/**
 * Registers one `Deno.test` named `name` with a step per case in `dir`.
 * Each step runs `run` on the case and checks the result against its
 * expectation. Fails when `dir` holds no case at all.
 */
export function goldenTest(
  name: string,
  dir: string,
  ext: string,
  run: GoldenRun,
  options: GoldenOptions = {},
): void {
  Deno.test(name, async (t) => {
    const cases = goldenCases(dir, ext, options);
    if (cases.length === 0) throw new Error(`no golden case in ${dir}`);
    for (const path of cases) {
      await t.step(path.slice(dir.length + 1), async () => {
        const text = options.folders ? "" : Deno.readTextFileSync(path);
        checkGolden(path, ext, await run(path, text));
      });
    }
  });
}
