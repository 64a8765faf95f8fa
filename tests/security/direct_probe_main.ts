/**
 * A test-only stand-in for main.ts: starts the analysis exactly as main.ts
 * does (`startConfinedAnalysis`), with the probe of direct_probe_worker.ts as
 * the analysis, confines it, calls the probe once with the targets given as
 * JSON on the command line, and prints its answer. Run by
 * worker_permissions_test.ts with the server's own flags.
 *
 *   deno run <server flags> direct_probe_main.ts ROOT DOCS TARGETS_JSON
 */
import { startConfinedAnalysis } from "../../src/mcp/launch.ts";
import { createLogger } from "../../src/mcp/launch.ts";

const [root, docs, targets] = Deno.args;
const analysis = startConfinedAnalysis(
  { root: `${root}/main.nz`, sourceRoot: root, docsRoot: docs },
  createLogger("error"),
  { module: new URL("./direct_probe_worker.ts", import.meta.url) },
);
await analysis.confine(Promise.resolve());
const reply = await analysis.bridge.call("probe", JSON.parse(targets));
console.log(JSON.stringify(reply));
analysis.bridge.terminate();
