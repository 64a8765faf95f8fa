/**
 * A real editor: Neovim's built-in LSP client (Debian's `neovim`, headless,
 * `-u NONE`) drives `nazm lsp` through tests/lsp/neovim/drive.lua — types an
 * error, gets its diagnostic, applies the code action, renames, formats —
 * and the buffer's text is checked after each step. Ignored, with the
 * command that installs it, where Neovim is not on the PATH.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { LOCK_FLAGS, REPO } from "../support/server.ts";
import { LSP_FLAGS, workspace } from "../support/lsp.ts";
import { PROGRAM } from "./fixtures.ts";

function neovim(): string | null {
  try {
    const out = new Deno.Command("nvim", { args: ["--version"], stdout: "piped" }).outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).split("\n")[0] : null;
  } catch {
    return null;
  }
}

const version = neovim();

Deno.test({
  name: version === null
    ? "neovim: not installed (apt-get install -y neovim; .ci/run installs it) — ignored"
    : `neovim: ${version} types an error, applies its fix, renames and formats through nazm lsp`,
  ignore: version === null,
  async fn() {
    const dir = workspace(PROGRAM);
    const out = join(dir, "steps.json");
    const cmd = [
      Deno.execPath(),
      "run",
      ...LOCK_FLAGS,
      ...LSP_FLAGS,
      join(REPO, "src", "cli", "main.ts"),
      "lsp",
    ];
    const result = await new Deno.Command("nvim", {
      args: [
        "--headless",
        "-u",
        "NONE",
        "-i",
        "NONE",
        "-n",
        "-c",
        `luafile ${join(REPO, "tests", "lsp", "neovim", "drive.lua")}`,
      ],
      env: { NAZM_LSP_CMD: JSON.stringify(cmd), NAZM_WS: dir, NAZM_OUT: out, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const steps: { step: string; value: unknown }[] = JSON.parse(Deno.readTextFileSync(out));
    const step = (name: string) => steps.find((s) => s.step === name)?.value;
    assertEquals(step("error"), undefined, new TextDecoder().decode(result.stderr));
    assert(result.success);
    const main = PROGRAM["main.nz"].replace(/\n$/, "");
    assertEquals(step("typed"), main.replace("bump(41)", "bum(41)"));
    assertEquals(step("diagnostics"), ["N0201", "N0403"]); // `bump` is now unused
    assertEquals(step("fixed"), main);
    assertEquals(step("diagnostics_after_fix"), []);
    assertEquals(step("renamed"), main.replaceAll("bump", "increment"));
    assertEquals(step("untidy"), main.replaceAll("bump", "increment").replace("n + 1", "n    + 1"));
    assertEquals(step("formatted"), main.replaceAll("bump", "increment"));
    // Neovim changed its buffer only; the file on disk is as it was.
    assertEquals(Deno.readTextFileSync(join(dir, "main.nz")), PROGRAM["main.nz"]);
  },
});
