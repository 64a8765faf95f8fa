/**
 * The golden runner: one case a file (or a folder), its expectation beside
 * it — `<case>.json` by default, or a text file such as
 * `<case>.diagnostics.txt` when the test renders the case as annotated
 * source. `NAZM_GOLDEN_WRITE=1` (`deno task golden:update`) rewrites the
 * expectations instead of comparing, after a reviewed change. The formats
 * are described in tests/golden/README.md.
 *
 * Usage, in any test file:
 *
 * ```ts
 * goldenTest("syntax golden", "tests/golden/syntax", ".nz", (path, text) => render(text), {
 *   expectation: ".diagnostics.txt",
 * });
 * ```
 *
 * @module
 */
/** Options for {@link goldenTest}. */
export interface GoldenOptions {
  /** Treat each sub-folder whose name ends with the extension as one case (multi-module cases). */
  readonly folders?: boolean;
  /**
   * The expectation's suffix, replacing the case's extension: `.json` (the
   * default) writes the value as stable JSON; any other suffix takes the
   * value as the expectation's exact text (a string ending with a newline).
   */
  readonly expectation?: string;
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

/** The expectation file of a case: `<case without ext><expectation>` (`.json` by default). */
export function expectationPath(casePath: string, ext: string, expectation = ".json"): string {
  return casePath.slice(0, casePath.length - ext.length) + expectation;
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
export function checkGolden(
  casePath: string,
  ext: string,
  actual: unknown,
  options: Pick<GoldenOptions, "expectation"> = {},
): void {
  const suffix = options.expectation ?? ".json";
  let text: string;
  if (suffix.endsWith(".json")) text = stableJson(actual);
  else if (typeof actual === "string" && actual.endsWith("\n")) text = actual;
  else throw new Error(`${casePath}: a ${suffix} expectation is a text ending with a newline`);
  checkGoldenText(casePath, expectationPath(casePath, ext, suffix), text);
}

/**
 * Compares `text` with the expectation file `expected` (any format), or
 * writes it in write mode. A missing expectation fails (outside write mode).
 */
export function checkGoldenText(casePath: string, expected: string, text: string): void {
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
 * Files in `dir` that are neither a case nor the expectation of one: a
 * renamed or deleted case must not leave an expectation nobody checks.
 */
function strayFiles(dir: string, ext: string, options: GoldenOptions): string[] {
  const expectation = options.expectation ?? ".json";
  const cases = new Set(goldenCases(dir, ext, options));
  const expected = new Set([...cases].map((c) => expectationPath(c, ext, expectation)));
  const stray: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isFile && !cases.has(path) && !expected.has(path)) stray.push(path);
  }
  return stray.sort();
}

/**
 * Registers one `Deno.test` named `name` with a step per case in `dir`.
 * Each step runs `run` on the case and checks the result against its
 * expectation. Fails when `dir` holds no case at all, or a file that is
 * neither a case nor a case's expectation.
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
        checkGolden(path, ext, await run(path, text), options);
      });
    }
    const stray = strayFiles(dir, ext, options);
    // Write mode removes only what looks like an old expectation; anything else is for a person.
    const suffix = options.expectation ?? ".json";
    const stale = stray.filter((p) => p.endsWith(".json") || p.endsWith(suffix));
    if (goldenWriteMode()) { for (const path of stale) Deno.removeSync(path); }
    const left = goldenWriteMode() ? stray.filter((p) => !stale.includes(p)) : stray;
    if (left.length > 0) {
      throw new Error(
        `${dir} holds files that are neither a case nor its expectation (an old expectation ` +
          `is removed by NAZM_GOLDEN_WRITE=1): ${left.join(", ")}`,
      );
    }
  });
}
