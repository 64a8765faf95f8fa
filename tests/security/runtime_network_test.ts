/**
 * "Opens no connection" holds for the README's own `deno run`
 * configuration, runtime included: started exactly as that configuration
 * says (its command, its arguments, its environment), under strace, the
 * process makes no network connection — Deno's update check, a DNS query at
 * start-up, is off (`DENO_NO_UPDATE_CHECK=1`). Runs where strace is
 * installed (Linux), and is reported as ignored elsewhere.
 */
import { assertEquals } from "../support/assert.ts";
import { childEnv, EXAMPLE_ROOT, modern, REPO } from "../support/server.ts";
import { join } from "node:path";

function hasStrace(): boolean {
  try {
    return new Deno.Command("strace", { args: ["-V"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** The README's `deno run` client configuration. */
function readmeConfiguration(): { command: string; args: string[]; env: Record<string, string> } {
  const readme = Deno.readTextFileSync(join(REPO, "README.md"));
  for (const block of readme.matchAll(/```json\n([\s\S]*?)```/g)) {
    const config = JSON.parse(block[1]).mcpServers?.nazm;
    if (config?.command === "deno") return { env: {}, ...config };
  }
  throw new Error("README.md shows no deno run configuration");
}

Deno.test({
  name: "security: the README's deno run configuration opens no network connection",
  ignore: !hasStrace(),
  async fn() {
    const config = readmeConfiguration();
    const args = config.args.map((arg) =>
      arg === "/absolute/path/to/main.nz"
        ? EXAMPLE_ROOT
        : arg.replace("/absolute/path/to/nazm/", `${REPO}/`)
    );
    const trace = Deno.makeTempFileSync({ prefix: "nazm-strace-" });
    try {
      const child = new Deno.Command("strace", {
        args: ["-f", "-qq", "-e", "trace=connect", "-o", trace, Deno.execPath(), ...args],
        env: childEnv(config.env),
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(
        new TextEncoder().encode(
          JSON.stringify(modern(1, "tools/call", { name: "nazm.diagnostics", arguments: {} })) +
            "\n",
        ),
      );
      await writer.close();
      const out = await child.output();
      assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
      const network = Deno.readTextFileSync(trace).split("\n")
        .filter((line) => /connect\(.*AF_INET6?/.test(line));
      console.log(
        `runtime network: ${network.length} connection(s) with env ${JSON.stringify(config.env)}`,
      );
      assertEquals(network, [], "the runtime connected somewhere");
    } finally {
      Deno.removeSync(trace);
    }
  },
});
