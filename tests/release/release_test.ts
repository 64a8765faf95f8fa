/**
 * The release files, checked where they can be here (the binaries cannot:
 * `deno compile` downloads a runtime per target, which these machines cannot
 * reach; the flags they bake in are tested through `deno run`):
 *
 * - CHANGELOG.md's first section, deno.json's version and `--version` agree,
 *   and the release notes are that section;
 * - the release workflow parses and validates (`@action-validator/cli`,
 *   installed by .ci/run into .ci/tools) and builds with scripts/compile.ts;
 * - the Homebrew formula parses (`ruby -c`; .ci/run installs Ruby), covers
 *   macOS and Linux on x86_64 and arm64, and its `test do` runs `--version`
 *   and `--help`; the fill-in script fills it from a sample checksum file
 *   and refuses an incomplete or malformed one.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { REPO, runServerCommand } from "../support/server.ts";
import { join } from "node:path";
import {
  changelogSections,
  configVersion,
  releaseNotes,
  releaseProblems,
} from "../../scripts/release.ts";
import { fillFormula, FORMULA_PATH, parseChecksums } from "../../scripts/homebrew.ts";
import { TARGETS } from "../../scripts/compile.ts";

const VERSION = configVersion();
const CHANGELOG = Deno.readTextFileSync(join(REPO, "CHANGELOG.md"));
const FORMULA = Deno.readTextFileSync(FORMULA_PATH);
const SAMPLE = Deno.readTextFileSync(join(REPO, "tests", "release", "fixtures", "SHA256SUMS"));
const VALIDATOR = join(REPO, ".ci", "tools", "node_modules", ".bin", "action-validator");

function assertThrowsWith(fn: () => unknown, text: string): void {
  try {
    fn();
  } catch (error) {
    assertStringIncludes((error as Error).message, text);
    return;
  }
  throw new Error(`expected an error with "${text}"`);
}

function runs(command: string, args: string[] = ["--version"]): boolean {
  try {
    return new Deno.Command(command, { args, stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

Deno.test("release: CHANGELOG.md's first section, deno.json and --version name one version", async () => {
  const sections = changelogSections(CHANGELOG);
  assert(sections.length > 0, "CHANGELOG.md has a release section");
  assertEquals(sections[0].version, VERSION);
  assertMatch(sections[0].date, /^(\d{4}-\d{2}-\d{2}|unreleased)$/);
  assertEquals(new Set(sections.map((section) => section.version)).size, sections.length);
  const printed = await runServerCommand(["--version"]);
  assertEquals(printed.stdout, `nazm-mcp ${VERSION}\n`);
});

Deno.test("release: the notes are the version's section; a tag is checked against all three", () => {
  const notes = releaseNotes(`v${VERSION}`);
  assertEquals(notes, changelogSections(CHANGELOG)[0].body + "\n");
  assert(notes.includes("--text-content=refusals"), "the notes name this release's changes");
  assertThrowsWith(() => releaseNotes("v99.0.0"), "no section for 99.0.0");
  const problems = releaseProblems("v99.0.0");
  assert(problems.some((problem) => problem.includes("is not v" + VERSION)), problems.join("\n"));
  // Until the section is dated, the right tag is refused for that alone.
  const dated = changelogSections(CHANGELOG)[0].date !== "unreleased";
  assertEquals(releaseProblems(`v${VERSION}`).length, dated ? 0 : 1);
});

Deno.test("release: the changelog parser rejects a heading it cannot read", () => {
  assertThrowsWith(() => changelogSections("# x\n\n## Unreleased\n"), "must be");
  assertEquals(changelogSections("# x\n\n## 1.2.3 — 2026-01-02\n\nbody\n"), [
    { version: "1.2.3", date: "2026-01-02", body: "body" },
  ]);
});

Deno.test("release: the workflow runs CI, builds with scripts/compile.ts, checksums and publishes the notes", () => {
  const workflow = Deno.readTextFileSync(join(REPO, ".github", "workflows", "release.yml"));
  assertMatch(workflow, /tags: \["v\*"\]/);
  assertMatch(workflow, /uses: \.\/\.github\/workflows\/ci\.yml/);
  assertMatch(workflow, /needs: ci/);
  assertMatch(workflow, /deno task compile/);
  assertMatch(workflow, /sha256sum nazm-mcp-\* > SHA256SUMS/);
  assertMatch(workflow, /scripts\/release\.ts check/);
  assertMatch(workflow, /scripts\/release\.ts notes/);
  assertMatch(workflow, /scripts\/homebrew\.ts/);
  const ci = Deno.readTextFileSync(join(REPO, ".github", "workflows", "ci.yml"));
  assertMatch(ci, /run: bash \.ci\/run/);
  const tasks = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json"))).tasks;
  assertMatch(tasks.compile, /scripts\/compile\.ts$/);
});

const validatorInstalled = runs(VALIDATOR, ["--help"]);
Deno.test({
  name: validatorInstalled
    ? "release: action-validator accepts both workflows and rejects a broken one"
    : "release: action-validator accepts both workflows (NOT RUN: npm ci --prefix .ci/tools, as .ci/run does)",
  ignore: !validatorInstalled,
  async fn() {
    const validate = async (path: string) =>
      (await new Deno.Command(VALIDATOR, { args: [path], stdout: "piped", stderr: "piped" })
        .output())
        .success;
    for (const file of ["release.yml", "ci.yml"]) {
      assert(await validate(join(REPO, ".github", "workflows", file)), file);
    }
    const broken = await Deno.makeTempFile({ suffix: ".yml" });
    try {
      const workflow = Deno.readTextFileSync(join(REPO, ".github", "workflows", "release.yml"));
      Deno.writeTextFileSync(broken, workflow.replace("needs: ci", "needs: tests"));
      assert(!(await validate(broken)), "a job that needs a missing job is refused");
    } finally {
      await Deno.remove(broken);
    }
  },
});

Deno.test("homebrew: the formula installs the binary of each macOS and Linux machine and tests --version and --help", () => {
  for (const target of TARGETS.filter((target) => !target.includes("windows"))) {
    assert(FORMULA.includes(`/nazm-mcp-${target}"`), `the formula downloads nazm-mcp-${target}`);
  }
  assertMatch(
    FORMULA,
    /on_macos do[\s\S]*on_arm do[\s\S]*on_intel do[\s\S]*on_linux do[\s\S]*on_arm do[\s\S]*on_intel do/,
  );
  assertMatch(FORMULA, /version "(\d+\.\d+\.\d+)"/);
  assertEquals(/version "([^"]+)"/.exec(FORMULA)![1], VERSION);
  const test = FORMULA.slice(FORMULA.indexOf("test do"));
  assertMatch(test, /nazm-mcp --version/);
  assertMatch(test, /nazm-mcp --help/);
  assertMatch(FORMULA, /bin\.install .* => "nazm-mcp"/);
});

Deno.test("homebrew: the fill-in script fills version, repository and every digest from a checksum file", () => {
  const checksums = parseChecksums(SAMPLE);
  assertEquals(checksums.size, 5);
  assertEquals(checksums.has("nazm-mcp-x86_64-pc-windows-msvc.exe"), true);
  const filled = fillFormula(FORMULA, { version: "1.2.3", repository: "someone/nazm", checksums });
  assertMatch(filled, /version "1\.2\.3"/);
  assertEquals(filled.match(/github\.com\/someone\/nazm\b/g)?.length, 5, "homepage and four urls");
  assert(!filled.includes("0".repeat(64)), "no digest left unfilled");
  for (const [file, digest] of checksums) {
    if (file.endsWith(".exe")) continue;
    assertMatch(filled, new RegExp(`/${file}"\\n\\s*sha256 "${digest}"`), file);
  }
  assertEquals(filled.split("\n").length, FORMULA.split("\n").length, "only values changed");
});

Deno.test("homebrew: the fill-in script refuses a missing binary, a malformed line, a duplicate, a bad version", () => {
  const checksums = parseChecksums(SAMPLE);
  const missing = new Map(checksums);
  missing.delete("nazm-mcp-aarch64-apple-darwin");
  assertThrowsWith(
    () => fillFormula(FORMULA, { version: "1.2.3", repository: "a/b", checksums: missing }),
    "no line for nazm-mcp-aarch64-apple-darwin",
  );
  assertThrowsWith(() => parseChecksums("abc  nazm-mcp-x\n"), "is not");
  const line = SAMPLE.split("\n")[0];
  assertThrowsWith(() => parseChecksums(`${line}\n${line}\n`), "twice");
  assertThrowsWith(
    () => fillFormula(FORMULA, { version: "v1.2", repository: "a/b", checksums }),
    "not X.Y.Z",
  );
  assertThrowsWith(
    () => fillFormula(FORMULA, { version: "1.2.3", repository: "a/b/c", checksums }),
    "OWNER/NAME",
  );
});

const rubyAvailable = runs("ruby");
Deno.test({
  name: rubyAvailable
    ? "homebrew: ruby -c accepts the formula and its filled-in form"
    : "homebrew: ruby -c accepts the formula (NOT RUN: no ruby on PATH; .ci/run installs it with apt-get)",
  ignore: !rubyAvailable,
  async fn() {
    const filled = await Deno.makeTempFile({ suffix: ".rb" });
    try {
      Deno.writeTextFileSync(
        filled,
        fillFormula(FORMULA, {
          version: VERSION,
          repository: "someone/nazm",
          checksums: parseChecksums(SAMPLE),
        }),
      );
      for (const path of [FORMULA_PATH, filled]) {
        const check = await new Deno.Command("ruby", {
          args: ["-c", path],
          stdout: "piped",
          stderr: "piped",
        })
          .output();
        assertEquals(
          new TextDecoder().decode(check.stdout),
          "Syntax OK\n",
          new TextDecoder().decode(check.stderr),
        );
      }
    } finally {
      await Deno.remove(filled);
    }
  },
});
