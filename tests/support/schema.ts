/**
 * Validating tool answers against the published files in schema/ with a
 * real JSON Schema 2020-12 validator (Ajv's 2020 class; the SDK's bundled
 * Ajv is draft-07 and ignores 2020-12 keywords).
 *
 * @module
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { join } from "node:path";
import { REPO } from "./server.ts";

const ajv = new Ajv2020({
  strict: true,
  allErrors: true,
  validateFormats: false,
});
// deno-lint-ignore no-explicit-any
const compiled = new Map<string, any>();

/** The parsed schema/<file>. */
export function publishedSchema(file: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(join(REPO, "schema", file)));
}

/** Fails (throws) unless `value` is valid against schema/<file>. */
export function assertValidAgainst(file: string, value: unknown): void {
  let validate = compiled.get(file);
  if (!validate) {
    validate = ajv.compile(publishedSchema(file));
    compiled.set(file, validate);
  }
  if (!validate(value)) {
    throw new Error(
      `not valid against schema/${file}: ${ajv.errorsText(validate.errors)}\n${
        JSON.stringify(value).slice(0, 2000)
      }`,
    );
  }
}
