/**
 * Real MCP clients from npm, installed by .ci/run into .ci/clients/<folder>
 * (each folder a package with its lock file: `npm ci --prefix
 * .ci/clients/<folder>`). A test of a client that is not installed is
 * registered as ignored, with the reason and the command in its name, never
 * passed silently.
 *
 * @module
 */
import { join } from "node:path";
import { childEnv, REPO, serverArgs } from "../support/server.ts";
import { type ToolDefinition, TOOLS } from "../../src/mcp/mod.ts";

/** A client package folder under .ci/clients. */
export interface ClientPackage {
  /** The folder under .ci/clients. */
  readonly folder: string;
  /** The npm package whose presence means the client is installed. */
  readonly npm: string;
}

/** The folder of a client package. */
export function clientFolder(client: ClientPackage): string {
  return join(REPO, ".ci", "clients", client.folder);
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The installed version of the client's package, or undefined when it is not installed. */
export function installedVersion(client: ClientPackage): string | undefined {
  const manifest = join(clientFolder(client), "node_modules", client.npm, "package.json");
  if (!exists(manifest)) return undefined;
  return JSON.parse(Deno.readTextFileSync(manifest)).version;
}

/** True when `node` runs (the clients are Node programs). */
export const NODE_AVAILABLE: boolean = (() => {
  try {
    return new Deno.Command("node", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

/**
 * Registers a client test: run when the client is installed (and node is
 * there), otherwise ignored with a name that says why and how to install it.
 */
export function clientTest(
  client: ClientPackage,
  name: string,
  fn: (version: string) => Promise<void>,
): void {
  const version = installedVersion(client);
  const missing = !NODE_AVAILABLE
    ? "node is not on PATH"
    : version === undefined
    ? `${client.npm} is not installed: npm ci --prefix .ci/clients/${client.folder}, as .ci/run does`
    : undefined;
  Deno.test({
    name: missing === undefined
      ? `${client.npm} ${version}: ${name}`
      : `${client.npm}: ${name} (NOT RUN: ${missing})`,
    ignore: missing !== undefined,
    fn: () => fn(version!),
  });
}

/** How a client starts the server: `deno run` with `deno task mcp`'s flags, plus `args`. */
export function serverSpec(args: readonly string[]): {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
} {
  return {
    command: Deno.execPath(),
    args: serverArgs(args),
    env: childEnv({ DENO_NO_UPDATE_CHECK: "1" }),
    cwd: REPO,
  };
}

/** Runs a client's probe.mjs against the server started with `args`; returns what it printed. */
export async function runProbe<T>(client: ClientPackage, args: readonly string[]): Promise<T> {
  const output = await new Deno.Command("node", {
    args: ["probe.mjs", JSON.stringify(serverSpec(args))],
    cwd: clientFolder(client),
    env: childEnv(),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`the ${client.folder} probe failed:\n${stderr}\n${stdout}`);
  return JSON.parse(stdout) as T;
}

/** The name pattern model APIs require of function names. */
export const MODEL_API_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The registry's tool published as `name` under either naming. */
export function canonicalTool(name: string): ToolDefinition {
  const tool = TOOLS.find((candidate) =>
    candidate.name === name || candidate.name.replaceAll(".", "_") === name
  );
  if (!tool) throw new Error(`${name} is not a tool under either naming`);
  return tool;
}

/** A value seen under underscore names, with every tool name back in its dotted form. */
export function dottedAgain<T>(value: T): T {
  let text = JSON.stringify(value);
  for (const tool of TOOLS) text = text.replaceAll(tool.name.replaceAll(".", "_"), tool.name);
  return JSON.parse(text);
}

/** The Deno cache this process uses, so that a client's server child need not download. */
export function denoDir(): string {
  const output = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], env: childEnv() })
    .outputSync();
  return JSON.parse(new TextDecoder().decode(output.stdout)).denoDir;
}

/** A fresh HOME for a client, with a project folder inside it; removed by the caller. */
export async function clientHome(): Promise<{ home: string; project: string }> {
  const home = await Deno.makeTempDir({ prefix: "nazm-client-home-" });
  const project = `${home}/project`;
  await Deno.mkdir(project);
  return { home, project };
}

/** Runs a client's executable from its node_modules/.bin; returns its output. */
export async function runClient(
  client: ClientPackage,
  bin: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(join(clientFolder(client), "node_modules", ".bin", bin), {
    args: [...args],
    cwd: options.cwd,
    env: { ...childEnv(), ...options.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  try {
    const output = await child.output();
    const text = new TextDecoder();
    return {
      code: output.code,
      stdout: text.decode(output.stdout),
      stderr: text.decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}
