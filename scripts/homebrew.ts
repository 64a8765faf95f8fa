/**
 * Fills packaging/homebrew/nazm-mcp.rb in from a release: its version, the
 * repository its binaries are downloaded from, and each binary's SHA-256
 * from the release's checksum file (`sha256sum` output: `<hex>  <file>`).
 *
 *   deno run --allow-read scripts/homebrew.ts --version 0.1.0 \
 *     --repository OWNER/NAME --checksums dist/SHA256SUMS > nazm-mcp.rb
 *
 * Every binary the formula names must have exactly one well-formed checksum
 * line; anything else is an error, never a formula with a stale digest.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "./compile.ts";

/** The formula as committed. */
export const FORMULA_PATH: string = join(REPO, "packaging", "homebrew", "nazm-mcp.rb");

/** Parses a `sha256sum` file: file name → lowercase hex digest. */
export function parseChecksums(text: string): Map<string, string> {
  const digests = new Map<string, string>();
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const match = /^([0-9a-fA-F]{64}) [ *](\S+)$/.exec(line);
    if (!match) throw new Error(`checksums line ${index + 1} is not "<sha256>  <file>": ${line}`);
    const file = match[2].replace(/^.*\//, "");
    if (digests.has(file)) throw new Error(`checksums name ${file} twice`);
    digests.set(file, match[1].toLowerCase());
  }
  return digests;
}

/** What a formula is filled in with. */
export interface Release {
  readonly version: string;
  /** `OWNER/NAME` on GitHub. */
  readonly repository: string;
  readonly checksums: ReadonlyMap<string, string>;
}

/**
 * The formula with the release filled in: `version`, the repository in
 * `homepage` and every `url`, and after each `url …/<binary>` the binary's
 * digest on the next `sha256` line.
 */
export function fillFormula(formula: string, release: Release): string {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(release.version)) {
    throw new Error(`version ${release.version} is not X.Y.Z`);
  }
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(release.repository)) {
    throw new Error(`repository ${release.repository} is not OWNER/NAME`);
  }
  const lines = formula.split("\n");
  let pending: string | undefined;
  let filled = 0;
  const out = lines.map((line) => {
    if (/^\s*version "/.test(line)) return line.replace(/"[^"]*"/, `"${release.version}"`);
    if (/^\s*(homepage|url) "https:\/\/github\.com\//.test(line)) {
      line = line.replace(/github\.com\/[^/"]+\/[^/"]+/, `github.com/${release.repository}`);
    }
    const url = /^\s*url ".*\/([^/"]+)"$/.exec(line);
    if (url) {
      pending = url[1];
      return line;
    }
    if (/^\s*sha256 "/.test(line)) {
      if (pending === undefined) throw new Error(`a sha256 line follows no url: ${line.trim()}`);
      const digest = release.checksums.get(pending);
      if (digest === undefined) throw new Error(`the checksums have no line for ${pending}`);
      filled++;
      pending = undefined;
      return line.replace(/"[^"]*"/, `"${digest}"`);
    }
    return line;
  });
  if (filled === 0) throw new Error("the formula names no binary");
  return out.join("\n");
}

function option(args: readonly string[], name: string): string {
  const at = args.indexOf(name);
  const value = at >= 0 ? args[at + 1] : undefined;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

if (import.meta.main) {
  try {
    const args = Deno.args;
    const formula = fillFormula(Deno.readTextFileSync(FORMULA_PATH), {
      version: option(args, "--version"),
      repository: option(args, "--repository"),
      checksums: parseChecksums(Deno.readTextFileSync(option(args, "--checksums"))),
    });
    Deno.stdout.writeSync(new TextEncoder().encode(formula));
  } catch (error) {
    console.error(`homebrew: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
