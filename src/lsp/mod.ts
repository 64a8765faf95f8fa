/**
 * The language server layer: `nazm lsp`, the Language Server Protocol over
 * stdio, answering from the compilation of the editor's buffers over the
 * disk with the same facts nazm-mcp publishes.
 *
 * @module
 */
export { serveLanguageServer } from "./server.ts";
