/**
 * The base layer's second entry, for what nazm-mcp runs before it starts
 * the analysis (src/mcp/launch.ts): the version and path containment, and
 * nothing that loads node:fs or instantiates hash-wasm. mod.ts would cost
 * those first steps some 100 ms of loading, a wait every cold start's first
 * answer shares (bench/README.md, "mcp").
 *
 * @module
 */
export { VERSION } from "./version.ts";
export { isWithin } from "./within.ts";
