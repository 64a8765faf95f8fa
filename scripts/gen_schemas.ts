/**
 * Writes every published output schema to schema/<file> (`deno task schemas`),
 * rendered from its zod definition (src/contracts/published.ts) as JSON Schema
 * 2020-12. With --check, writes nothing and exits 1 when a committed file
 * differs from its rendering or is missing.
 *
 * @module
 */
import { PUBLISHED_SCHEMAS, schemaFileText } from "../src/contracts/mod.ts";

const SCHEMA_DIR = new URL("../schema/", import.meta.url);

/** The rendering of every published schema: file name → bytes. */
export function renderAll(): Map<string, string> {
  const out = new Map<string, string>();
  for (const schema of PUBLISHED_SCHEMAS) {
    if (out.has(schema.file)) {
      throw new Error(`two schemas publish ${schema.file}`);
    }
    out.set(schema.file, schemaFileText(schema));
  }
  return out;
}

function main(args: readonly string[]): number {
  const check = args.includes("--check");
  let stale = 0;
  for (const [file, text] of renderAll()) {
    const url = new URL(file, SCHEMA_DIR);
    let current: string | undefined;
    try {
      current = Deno.readTextFileSync(url);
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    if (check) {
      console.error(
        `schema/${file} ${current === undefined ? "is missing" : "is out of date"}`,
      );
      stale++;
    } else {
      Deno.writeTextFileSync(url, text);
      console.error(`wrote schema/${file}`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(main(Deno.args));
