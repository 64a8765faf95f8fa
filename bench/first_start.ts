/**
 * The first start of nazm-mcp from a checkout, with an empty Deno cache:
 * what it downloads and how long it takes to answer its first request.
 *
 *   deno task bench:first-start
 *
 * Each variant starts the server with a fresh DENO_DIR whose npm registry is
 * a local counting proxy in front of the real one (NPM_CONFIG_REGISTRY, or
 * the public registry), sends `initialize` and `tools/list`, and reports the
 * bytes and tarballs that went through the proxy, the cache's size on disk,
 * and the wall time from spawn to the tools/list answer:
 *
 * - `server.lock`: `deno task mcp`'s command (the server's own lock file);
 * - `dev.lock`: the same command resolved against dev.lock, which also
 *   holds the tests' and benchmarks' packages: what every start from a
 *   checkout fetched while one deno.lock held them all (dev.lock is that
 *   file, package for package);
 * - `warm`: the first variant's command again, on the cache it filled,
 *   with the proxy shut down (Deno's npm cache is kept per registry URL, so
 *   the same URL, now refusing connections, proves no network is used);
 * - `offline after setup`: `deno task setup` into a fresh cache through a
 *   proxy, then a start after that proxy is shut down.
 *
 * Timings depend on the network and the machine: report them with the date.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "../scripts/compile.ts";

const UPSTREAM = (Deno.env.get("NPM_CONFIG_REGISTRY") ?? "https://registry.npmjs.org/")
  .replace(/\/?$/, "/");
const PERMISSIONS = ["--allow-read", "--allow-env=NAZM_LOG", "--unstable-worker-options"];
const ROOT = join(REPO, "examples", "shapes", "main.nz");

/** What went through the proxy. */
interface Traffic {
  /** Every byte received: package metadata and tarballs. */
  bytes: number;
  /** The tarballs' bytes alone. */
  tarballBytes: number;
  tarballs: string[];
}

/** A local registry proxy that counts the bytes it forwards and points tarball URLs at itself. */
function startProxy(): { url: string; traffic: Traffic; close(): Promise<void> } {
  const traffic: Traffic = { bytes: 0, tarballBytes: 0, tarballs: [] };
  let self = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname.slice(1);
    const upstream = await fetch(UPSTREAM + path, {
      headers: { accept: request.headers.get("accept") ?? "*/*" },
    });
    let body = new Uint8Array(await upstream.arrayBuffer());
    traffic.bytes += body.length;
    if (path.endsWith(".tgz")) {
      traffic.tarballs.push(path.slice(path.lastIndexOf("/") + 1));
      traffic.tarballBytes += body.length;
    } else if (upstream.headers.get("content-type")?.includes("json")) {
      body = new TextEncoder().encode(
        new TextDecoder().decode(body).replaceAll(UPSTREAM, self),
      );
    }
    return new Response(body, {
      status: upstream.status,
      headers: {
        "content-type": upstream.headers.get("content-type") ?? "application/octet-stream",
      },
    });
  });
  self = `http://127.0.0.1:${server.addr.port}/`;
  return { url: self, traffic, close: () => server.shutdown() };
}

/** Starts the server, asks for tools/list, returns the milliseconds to its answer. */
async function timeToFirstAnswer(
  lock: string,
  env: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", `--lock=${lock}`, "--frozen", ...PERMISSIONS, "main.ts", "--root", ROOT],
    cwd: REPO,
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  const lines = [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "first-start", version: "0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
  ];
  await writer.write(new TextEncoder().encode(lines.map((l) => JSON.stringify(l) + "\n").join("")));
  let elapsed = NaN;
  let buffer = "";
  reading: for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      if (message.id === 1 && message.result?.tools?.length > 0) {
        elapsed = performance.now() - started;
        await writer.close();
        break reading;
      }
    }
  }
  const status = await child.status;
  if (Number.isNaN(elapsed) || !status.success) {
    throw new Error(`the server did not answer tools/list (exit ${status.code}):\n${await stderr}`);
  }
  return elapsed;
}

function sizeOf(path: string): number {
  let total = 0;
  for (const entry of Deno.readDirSync(path)) {
    const full = join(path, entry.name);
    const info = Deno.lstatSync(full);
    total += info.isDirectory ? sizeOf(full) : info.size;
  }
  return total;
}

function packagesIn(denoDir: string): string[] {
  const registry = join(denoDir, "npm");
  const found: string[] = [];
  for (const host of Deno.readDirSync(registry)) {
    if (!host.isDirectory) continue;
    for (const entry of Deno.readDirSync(join(registry, host.name))) {
      if (!entry.isDirectory) continue;
      if (entry.name.startsWith("@")) {
        for (const scoped of Deno.readDirSync(join(registry, host.name, entry.name))) {
          found.push(`${entry.name}/${scoped.name}`);
        }
      } else found.push(entry.name);
    }
  }
  return found.sort();
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function cold(lock: string) {
  const denoDir = await Deno.makeTempDir({ prefix: "nazm-first-start-" });
  const proxy = startProxy();
  try {
    const ms = await timeToFirstAnswer(lock, { DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: proxy.url });
    return { denoDir, ms, traffic: proxy.traffic, registry: proxy.url };
  } finally {
    await proxy.close();
  }
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const light = await cold("server.lock");
  const heavy = await cold("dev.lock");
  for (const [name, run] of [["server.lock", light], ["dev.lock (before)", heavy]] as const) {
    rows.push([
      name,
      `${mb(run.traffic.bytes)} (${mb(run.traffic.tarballBytes)} + ${
        mb(run.traffic.bytes - run.traffic.tarballBytes)
      })`,
      String(run.traffic.tarballs.length),
      mb(sizeOf(run.denoDir)),
      `${run.ms.toFixed(0)} ms`,
      packagesIn(run.denoDir).join(" "),
    ]);
  }
  const warm = await timeToFirstAnswer("server.lock", {
    DENO_DIR: light.denoDir,
    NPM_CONFIG_REGISTRY: light.registry,
  });
  rows.push([
    "warm, registry unreachable",
    "0",
    "0",
    mb(sizeOf(light.denoDir)),
    `${warm.toFixed(0)} ms`,
    "",
  ]);

  const setupDir = await Deno.makeTempDir({ prefix: "nazm-setup-" });
  const setupProxy = startProxy();
  const setupStarted = performance.now();
  const setup = await new Deno.Command(Deno.execPath(), {
    args: ["task", "setup"],
    cwd: REPO,
    env: {
      DENO_DIR: setupDir,
      NPM_CONFIG_REGISTRY: setupProxy.url,
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
    },
    stdout: "null",
    stderr: "piped",
  }).output();
  const setupMs = performance.now() - setupStarted;
  await setupProxy.close();
  if (!setup.success) throw new Error(new TextDecoder().decode(setup.stderr));
  const offline = await timeToFirstAnswer("server.lock", {
    DENO_DIR: setupDir,
    NPM_CONFIG_REGISTRY: setupProxy.url,
  });
  rows.push([
    `deno task setup (${setupMs.toFixed(0)} ms), then offline`,
    `${mb(setupProxy.traffic.bytes)} (${mb(setupProxy.traffic.tarballBytes)} + ${
      mb(setupProxy.traffic.bytes - setupProxy.traffic.tarballBytes)
    })`,
    String(setupProxy.traffic.tarballs.length),
    mb(sizeOf(setupDir)),
    `${offline.toFixed(0)} ms`,
    packagesIn(setupDir).join(" "),
  ]);

  console.log(`first start of nazm-mcp from a checkout, ${new Date().toISOString().slice(0, 10)}`);
  console.log(
    "| start | downloaded (tarballs + metadata) | tarballs | DENO_DIR | spawn → tools/list | packages cached |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  for (const dir of [light.denoDir, heavy.denoDir, setupDir]) {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
