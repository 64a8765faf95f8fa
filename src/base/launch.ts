/**
 * The base layer's second entry, for nazm-mcp's main thread (main.ts,
 * src/mcp/launch.ts and the server it loads): the version, path
 * containment and the JSON scanner, and nothing that loads node:fs or
 * instantiates hash-wasm. mod.ts would cost the main thread some 100 ms
 * of loading, which every cold start's first answer waits for: the
 * analysis is told the roots only once the main thread has loaded all its
 * code (src/mcp/bridge.ts `startConfinedAnalysis`).
 *
 * @module
 */
export { VERSION } from "./version.ts";
export { isWithin } from "./within.ts";
export { scanJson } from "./json.ts";
