/**
 * The base layer: spans and the line index, BLAKE3 and canonical JSON, the
 * diagnostic shape and the one table of diagnostic codes. It imports
 * nothing of the project.
 *
 * @module
 */
export * from "./span.ts";
export * from "./digest.ts";
export * from "./diagnostic.ts";
export * from "./codes.ts";
export * from "./version.ts";
export * from "./json.ts";
export * from "./files.ts";
