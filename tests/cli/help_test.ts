/**
 * `nazm --version`, `nazm help COMMAND` and `nazm COMMAND --help`: help on
 * stdout with exit 0, a mistake on stderr with exit 2, as a Unix tool does;
 * the usage help prints is the one the command prints on its own usage
 * errors, so the two cannot drift apart.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { main, SUBCOMMANDS } from "../../src/cli/main.ts";
import { VERSION } from "../../src/base/mod.ts";

async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { status, out, err };
}

Deno.test("cli --version and -V: the version on stdout, exit 0", async () => {
  for (const flag of ["--version", "-V"]) {
    const r = await run(flag);
    assertEquals(r, { status: 0, out: `nazm ${VERSION}\n`, err: "" });
  }
});

Deno.test("cli help COMMAND = COMMAND --help = COMMAND -h, for every subcommand", async () => {
  for (const [name, command] of Object.entries(SUBCOMMANDS)) {
    const help = await run("help", name);
    assertEquals(help.status, 0, name);
    assertEquals(help.err, "", name);
    assert(help.out.startsWith(`${command.usage}\n\n${name}: ${command.summary}\n\n`), name);
    assertStringIncludes(help.out, command.help);
    for (const flag of ["--help", "-h"]) {
      assertEquals(await run(name, flag), help, `${name} ${flag}`);
      assertEquals(await run(name, "some-argument", flag), help, `${name} … ${flag}`);
    }
    for (const line of command.help.split("\n")) {
      assert(line.length <= 100, `${name}'s help has a line over 100 columns: ${line}`);
    }
    // Every exit status a command has is named in its help.
    assertStringIncludes(help.out, "Exit status", name);
  }
});

Deno.test("cli help: the usage it prints is the usage the command prints on a mistake", async () => {
  for (const [name, command] of Object.entries(SUBCOMMANDS)) {
    if (name === "help") continue;
    const r = await run(name, "--no-such-option");
    assertEquals(r.status, 2, name);
    assertEquals(r.out, "", name);
    // Each form of the synopsis, however the command lays out its usage.
    const forms = command.usage.split("\n").map((l) => l.replace(/^(usage: | {2})nazm /, ""));
    for (const form of forms.filter((f) => f !== "usage:")) assertStringIncludes(r.err, form, name);
  }
});

Deno.test("cli help: the list of subcommands, and the mistakes", async () => {
  const list = await run("help");
  assertEquals(list.status, 0);
  assertEquals(list.err, "");
  for (const name of Object.keys(SUBCOMMANDS)) assertStringIncludes(list.out, `\n  ${name} `);
  assertStringIncludes(list.out, "nazm --version");
  assertEquals(await run("--help"), list);
  assertEquals(await run("-h"), list);
  const bare = await run();
  assertEquals([bare.status, bare.out, bare.err], [2, "", list.out]);

  const unknown = await run("help", "nope");
  assertEquals(unknown.status, 2);
  assertEquals(unknown.out, "");
  assertStringIncludes(unknown.err, "nazm help: unknown subcommand `nope`");
  const two = await run("help", "check", "run");
  assertEquals([two.status, two.out], [2, ""]);
  assertStringIncludes(two.err, "unexpected argument `run`");
  const notACommand = await run("nope", "--help");
  assertEquals([notACommand.status, notACommand.out], [2, ""]);
  assertStringIncludes(notACommand.err, "unknown subcommand `nope`");
});

Deno.test("cli help and --version through the real process: streams and exit statuses", async () => {
  const nazm = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--lock=server.lock",
        "--frozen",
        "--allow-read",
        "--allow-write",
        "--unstable-worker-options",
        "src/cli/main.ts",
        ...args,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  const version = await nazm("--version");
  assertEquals([version.code, text(version.stdout), text(version.stderr)], [
    0,
    `nazm ${VERSION}\n`,
    "",
  ]);
  const help = await nazm("help", "build");
  assertEquals([help.code, text(help.stderr)], [0, ""]);
  assert(text(help.stdout).startsWith(SUBCOMMANDS.build.usage));
  const unknown = await nazm("help", "nope");
  assertEquals([unknown.code, text(unknown.stdout)], [2, ""]);
  assertStringIncludes(text(unknown.stderr), "unknown subcommand `nope`");
});
