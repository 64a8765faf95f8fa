/**
 * A test-only analysis that tries, where nazm-mcp's first analysis runs (a
 * node worker of the main thread, after main.ts revoked the process's read
 * permission), every thing the analysis must not be able to do
 * (probe_attempts.ts); and reads through the sandbox's read service as the
 * analysis does, with no path check of ours in the way, to show that the
 * sandbox's permission alone keeps what lies outside the roots unread.
 * Served as the analysis is (worker_host.ts); direct_probe_main.ts starts it.
 */
import { dirname } from "node:path";
import { workerData } from "node:worker_threads";
import { serveToolsInWorker } from "../../src/mcp/worker_host.ts";
import { readsThrough } from "../../src/mcp/reads.ts";
import type { ReadChannel } from "../../src/mcp/read_channel.ts";
import { type Targets, tryAll } from "./probe_attempts.ts";

const service = readsThrough((workerData as { reads: ReadChannel }).reads);

/** A read through the service under `root`; under `/`, every path lies inside it. */
function served(root: string, path: string): string {
  const read = service.read(root, path, 1 << 20, 1);
  return "bytes" in read ? "ok" : read.error;
}

serveToolsInWorker({
  probe: async (args) => {
    const targets = args as unknown as Targets;
    return {
      kind: "answer",
      value: {
        ...await tryAll(targets),
        "the service reads a file of the source root": served(
          dirname(targets.inside),
          targets.inside,
        ),
        "the service reads /etc/passwd, no path check in the way": served("/", "/etc/passwd"),
        "the service reads a file outside both roots, likewise": served("/", targets.outside),
      },
    };
  },
});
