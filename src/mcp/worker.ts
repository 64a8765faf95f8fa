/**
 * The analysis worker's entry: the only code of nazm-mcp that touches the
 * files it answers about. bridge.ts starts it with read permission on the
 * source root and the docs repository and nothing else.
 *
 * @module
 */
import { TOOLS } from "./registry.ts";
import { serveToolsInWorker } from "./worker_host.ts";

serveToolsInWorker(TOOLS);
