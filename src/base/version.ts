/**
 * The one place the version lives in code. A test checks it equals deno.json's
 * "version", so the CLI, the server and every answer's `compiler` field agree.
 *
 * @module
 */

/** The release version of nazm and nazm-mcp. */
export const VERSION = "0.1.0";

/** What every answer names as its producer. */
export const COMPILER = `nazm ${VERSION}`;
