/**
 * The type bombs (tests/support/type_bombs.ts) through `nazm lsp`, whose
 * answers render the types the checker inferred (inlay hints, a local's
 * hover) from the resolutions of the module asked about: each program at
 * 64 and at 3,000 lets gets its diagnostics, every hint and a hover within
 * 2 s a request, and no label is longer than the bound the server's
 * messages keep. The language server runs without a heap cap, so a
 * rendering that followed a doubled type would not end, and a quadratic
 * one would not end in time.
 */
import type { Hover, InlayHint } from "vscode-languageserver/node";
import { assert } from "../support/assert.ts";
import { startLsp, uriOf, workspace } from "../support/lsp.ts";
import { within } from "../support/server.ts";
import { typeBombs } from "../support/type_bombs.ts";

const LIMIT_MS = 2_000;
// The bound type_bomb_test.ts holds the server's messages to: a type is elided past
// MAX_TYPE_TEXT characters, and what closes it stays short.
const LABEL_BOUND = 1_000;

Deno.test("security: type bombs through nazm lsp — hints and hovers bounded, under 2 s each", async () => {
  const programs = Object.entries({ ...typeBombs(64) }).concat(
    Object.entries(typeBombs(3_000)).map(([name, text]) => [`${name} at 3000`, text]),
  );
  const dir = workspace({ "main.nz": "fn main() -> Unit {}\n" });
  const session = await startLsp(dir);
  try {
    const c = session.connection;
    const uri = uriOf(dir, "main.nz");
    let version = 1;
    await c.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "nazm", version, text: "fn main() -> Unit {}\n" },
    });
    await session.diagnostics(uri);
    for (const [name, text] of programs) {
      version++;
      await c.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
      const published = await within(
        LIMIT_MS,
        `${name}: diagnostics`,
        session.diagnostics(uri, (p) => p.version === version),
      );
      assert(published.diagnostics.length > 0, `${name}: the mismatch is reported`);
      const lines = text.split("\n");
      const hints: InlayHint[] = await within(
        LIMIT_MS,
        `${name}: inlay hints`,
        c.sendRequest("textDocument/inlayHint", {
          textDocument: { uri },
          range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
        }),
      );
      for (const hint of hints) {
        const label = String(hint.label);
        assert(label.length <= LABEL_BOUND, `${name}: a hint of ${label.length} characters`);
      }
      const last = lines.findIndex((l) => l.includes(" = ") && l.includes("64 ="));
      const line = last >= 0 ? last : lines.findIndex((l) => l.startsWith("  let bad"));
      const hover: Hover | null = await within(
        LIMIT_MS,
        `${name}: hover`,
        c.sendRequest("textDocument/hover", {
          textDocument: { uri },
          position: { line, character: lines[line].indexOf("let ") + 5 },
        }),
      );
      const shown = (hover?.contents as { value: string } | undefined)?.value ?? "";
      assert(shown.length <= LABEL_BOUND + 20, `${name}: a hover of ${shown.length} characters`);
    }
  } finally {
    await session.close();
  }
});
