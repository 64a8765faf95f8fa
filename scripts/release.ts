/**
 * The release's checks and notes, for .github/workflows/release.yml:
 *
 *   deno run --allow-read scripts/release.ts check v0.1.0   # the tag names this version
 *   deno run --allow-read scripts/release.ts notes v0.1.0   # its CHANGELOG.md section
 *
 * `check` fails unless the tag is `v` + deno.json's version, the version
 * constant (what `--version` prints) agrees, and CHANGELOG.md's first
 * section is that version's, dated. `notes` prints that section's body.
 *
 * @module
 */
import { join } from "node:path";
import { VERSION } from "../src/base/mod.ts";
import { REPO } from "./compile.ts";

/** One release's section of CHANGELOG.md. */
export interface ChangelogSection {
  readonly version: string;
  /** `YYYY-MM-DD`, or `unreleased`. */
  readonly date: string;
  /** The section's text after its heading, trimmed. */
  readonly body: string;
}

const HEADING = /^## (\S+) — (\S+)$/;

/** The release sections of a changelog, in order (newest first). */
export function changelogSections(text: string): ChangelogSection[] {
  const sections: ChangelogSection[] = [];
  const lines = text.split("\n");
  let current: { version: string; date: string; lines: string[] } | undefined;
  const close = () => {
    if (current) {
      sections.push({
        version: current.version,
        date: current.date,
        body: current.lines.join("\n").trim(),
      });
    }
  };
  for (const line of lines) {
    const heading = HEADING.exec(line);
    if (heading) {
      close();
      current = { version: heading[1], date: heading[2], lines: [] };
    } else if (line.startsWith("## ")) {
      throw new Error(`CHANGELOG.md: a section heading must be "## <version> — <date>": ${line}`);
    } else current?.lines.push(line);
  }
  close();
  return sections;
}

/** deno.json's version. */
export function configVersion(repo: string = REPO): string {
  return JSON.parse(Deno.readTextFileSync(join(repo, "deno.json"))).version;
}

/**
 * The problems that stop a release of `tag` (none: it may go), checked
 * against deno.json, the version constant and CHANGELOG.md.
 */
export function releaseProblems(tag: string, repo: string = REPO): string[] {
  const problems: string[] = [];
  const version = configVersion(repo);
  if (tag !== `v${version}`) {
    problems.push(`the tag ${tag} is not v${version}, deno.json's version`);
  }
  if (VERSION !== version) problems.push(`--version prints ${VERSION}, deno.json says ${version}`);
  const [first] = changelogSections(Deno.readTextFileSync(join(repo, "CHANGELOG.md")));
  if (first?.version !== version) {
    problems.push(`CHANGELOG.md's first section is ${first?.version ?? "missing"}, not ${version}`);
  } else if (!/^\d{4}-\d{2}-\d{2}$/.test(first.date)) {
    problems.push(`CHANGELOG.md's ${version} section is dated "${first.date}", not YYYY-MM-DD`);
  }
  return problems;
}

/** The release notes of `tag`: its CHANGELOG.md section's body. */
export function releaseNotes(tag: string, repo: string = REPO): string {
  const version = tag.replace(/^v/, "");
  const section = changelogSections(Deno.readTextFileSync(join(repo, "CHANGELOG.md")))
    .find((candidate) => candidate.version === version);
  if (!section) throw new Error(`CHANGELOG.md has no section for ${version}`);
  return section.body + "\n";
}

function main(args: readonly string[]): number {
  const [command, tag] = args;
  if (command === "check" && tag) {
    const problems = releaseProblems(tag);
    for (const problem of problems) console.error(`release: ${problem}`);
    return problems.length === 0 ? 0 : 1;
  }
  if (command === "notes" && tag) {
    Deno.stdout.writeSync(new TextEncoder().encode(releaseNotes(tag)));
    return 0;
  }
  console.error("usage: scripts/release.ts check|notes vX.Y.Z");
  return 2;
}

if (import.meta.main) Deno.exit(main(Deno.args));
