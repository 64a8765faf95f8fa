/**
 * `nazm lsp` under the protocol's less travelled paths: params of the wrong
 * shape, several changes in one notification, a closed document, a lying
 * frame header, a compilation root that is not there.
 */
import { join } from "node:path";
import { CancellationTokenSource, type Hover, type TextEdit } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { assert, assertEquals } from "../support/assert.ts";
import { type LspSession, startLsp, uriOf, workspace } from "../support/lsp.ts";
import { BUMP, failure, PROGRAM, started } from "./fixtures.ts";

const MAIN = PROGRAM["main.nz"];

async function hoverText(session: LspSession, uri: string, position = BUMP): Promise<string> {
  const hover: Hover | null = await session.connection.sendRequest("textDocument/hover", {
    textDocument: { uri },
    position,
  });
  return hover === null ? "null" : (hover.contents as { value: string }).value;
}

Deno.test("lsp protocol: params of the wrong shape get InvalidParams naming the field", async () => {
  const { dir, session, uri } = await started();
  try {
    const c = session.connection;
    const position = { textDocument: { uri }, position: BUMP };
    const cases: [string, unknown, string][] = [
      ["textDocument/hover", { position: BUMP }, "`textDocument.uri` is not a string"],
      ["textDocument/hover", { textDocument: { uri: 5 }, position: BUMP }, "`textDocument.uri`"],
      ["textDocument/definition", { textDocument: { uri }, position: null }, "`position`"],
      ["textDocument/hover", { textDocument: { uri }, position: "here" }, "`position`"],
      ["textDocument/rename", position, "`newName` is not a string"],
      ["textDocument/rename", { ...position, newName: 42 }, "`newName`"],
      ["textDocument/references", position, "`context.includeDeclaration`"],
      ["textDocument/inlayHint", { textDocument: { uri } }, "`range` is not a range"],
      ["textDocument/codeAction", { textDocument: { uri }, context: {} }, "`range`"],
      ["workspace/symbol", {}, "`query` is not a string"],
      ["workspace/symbol", { query: 5 }, "`query`"],
      ["textDocument/formatting", { options: {} }, "`textDocument.uri`"],
      ["textDocument/semanticTokens/full", { textDocument: null }, "`textDocument.uri`"],
    ];
    for (const [method, params, field] of cases) {
      const refused = await failure(c.sendRequest(method, params));
      assert(refused !== "answered", `${method} ${JSON.stringify(params)} was answered`);
      assertEquals(refused.code, -32602, `${method}: ${refused.message}`);
      assert(
        refused.message.startsWith("invalid params: ") && refused.message.includes(field),
        `${method}: ${refused.message}`,
      );
    }
    // A didOpen without text is ignored, not read as the text "null".
    const scratch = uriOf(dir, "scratch.nz");
    await c.sendNotification("textDocument/didOpen", {
      textDocument: { uri: scratch, languageId: "nazm", version: 1, text: null },
    });
    const notOpen = await failure(c.sendRequest("textDocument/documentSymbol", {
      textDocument: { uri: scratch },
    }));
    assert(notOpen !== "answered" && notOpen.message.includes("neither open"));
    assert((await hoverText(session, uri)).includes("fn bump"));
  } finally {
    await session.close();
  }
});

Deno.test("lsp protocol: several changes in one didChange, over lines, down to an empty buffer", async () => {
  const { session, uri } = await started();
  try {
    const c = session.connection;
    let document = TextDocument.create(uri, "nazm", 1, MAIN);
    const changes = [
      // `bump` renamed at its declaration and its call, then its body spread over two lines:
      // each change's range is in the text the previous ones left.
      { range: { start: { line: 4, character: 3 }, end: { line: 4, character: 7 } }, text: "inc" },
      {
        range: { start: { line: 9, character: 14 }, end: { line: 9, character: 18 } },
        text: "inc",
      },
      {
        range: { start: { line: 5, character: 5 }, end: { line: 6, character: 0 } },
        text: "\n    2\n",
      },
    ];
    document = TextDocument.update(document, changes, 2);
    const since = session.published.length;
    await c.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: changes,
    });
    const published = await session.diagnostics(uri, (p) => p.version === 2, since);
    assertEquals(published.diagnostics, []);
    const text = document.getText();
    assert(text.includes("fn inc(n: Int) -> Int {\n  n +\n    2\n}"), text);
    const call = document.positionAt(text.indexOf("inc(41)") + 1);
    assert((await hoverText(session, uri, call)).includes("fn inc(n: Int) -> Int"));
    // The server's text is the client's: formatting it gives the canonical form of that text.
    const edits: TextEdit[] = await c.sendRequest("textDocument/formatting", {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assertEquals(
      TextDocument.applyEdits(document, edits),
      MAIN.replaceAll("bump", "inc").replace("n + 1", "n + 2"),
    );
    // A range over the whole text and past it empties the buffer.
    const emptied = session.published.length;
    await c.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 3 },
      contentChanges: [{
        range: { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } },
        text: "",
      }],
    });
    const empty = await session.diagnostics(uri, (p) => p.version === 3, emptied);
    assertEquals(empty.diagnostics.map((d) => [d.code, d.range.end]), [
      ["N0501", { line: 0, character: 0 }],
    ]);
    assertEquals(await c.sendRequest("textDocument/documentSymbol", { textDocument: { uri } }), []);
    assertEquals(await hoverText(session, uri, { line: 0, character: 0 }), "null");
  } finally {
    await session.close();
  }
});

Deno.test("lsp protocol: a closed file of the compilation is answered from disk, formatting too", async () => {
  const messy = MAIN.replace("n + 1", "n   +   1");
  const dir = workspace({ ...PROGRAM, "main.nz": messy });
  const session = await startLsp(dir);
  const uri = uriOf(dir, "main.nz");
  try {
    const c = session.connection;
    await c.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri,
        languageId: "nazm",
        version: 1,
        text: MAIN.replace("bump(41)", "bum(41)"),
      },
    });
    await session.diagnostics(uri);
    await c.sendNotification("textDocument/didClose", { textDocument: { uri } });
    assert((await hoverText(session, uri)).includes("fn bump"));
    const edits: TextEdit[] = await c.sendRequest("textDocument/formatting", {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assertEquals(TextDocument.applyEdits(TextDocument.create(uri, "nazm", 0, messy), edits), MAIN);
    assertEquals(Deno.readTextFileSync(join(dir, "main.nz")), messy);
  } finally {
    await session.close();
  }
});

Deno.test("lsp protocol: a compilation root that is not a file is said, not silently dropped", async () => {
  for (
    const [root, said] of [
      ["nope.nz", "nope.nz, is not a file: every file is answered from its syntax alone"],
      ["geo", "geo, is not a file"],
      [5, "initializationOptions.root is not a string (5): ignored"],
    ] as const
  ) {
    const dir = workspace(PROGRAM);
    const session = await startLsp(dir, { initializationOptions: { root } });
    try {
      const uri = uriOf(dir, "main.nz");
      // A request round trip: the warning, sent on `initialized`, has arrived before its answer.
      await session.connection.sendRequest("workspace/symbol", { query: "" });
      assertEquals(session.shown.length, 1, JSON.stringify(session.shown));
      assertEquals(session.shown[0].type, 2); // a warning
      assert(session.shown[0].message.includes(said), session.shown[0].message);
      await session.connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "nazm", version: 1, text: MAIN },
      });
      // The server serves on, from syntax alone (or from main.nz when the option is ignored).
      assert((await hoverText(session, uri)).length > 0);
    } finally {
      await session.close();
    }
    assertEquals(await session.exited, 0);
  }
});

Deno.test("lsp protocol: a frame whose Content-Length lies costs that message, not the session", async () => {
  for (const lie of [-5, 5]) {
    const { session, uri } = await started();
    try {
      await session.diagnostics(uri);
      const body = new TextEncoder().encode(JSON.stringify({
        jsonrpc: "2.0",
        id: 9001,
        method: "textDocument/hover",
        params: { textDocument: { uri }, position: BUMP },
      }));
      session.child.stdin!.write(`Content-Length: ${body.length + lie}\r\n\r\n`);
      session.child.stdin!.write(body);
      // Too long, the lying frame takes the start of the next message: this one.
      await session.connection.sendNotification("$/nazm/nudge");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answered = await Promise.race([
        hoverText(session, uri),
        new Promise<string>((resolve) => timer = setTimeout(() => resolve("no answer"), 10_000)),
      ]);
      clearTimeout(timer);
      // A server out of step would not answer `shutdown` either.
      if (!answered.includes("fn bump")) session.child.kill();
      assert(answered.includes("fn bump"), `Content-Length ${lie}: ${answered}`);
    } finally {
      await session.close();
    }
  }
});

Deno.test("lsp protocol: a request cancelled while it waits is answered RequestCancelled", async () => {
  const { dir, session, uri } = await started();
  try {
    const c = session.connection;
    await session.diagnostics(uri);
    // A buffer whose first parse keeps the server busy while the next requests queue behind it.
    const big = uriOf(dir, "scratch/big.nz");
    const text = "fn f() -> Int {\n" + "  1 + 2 * 3 - f() + g(1, 2, 3);\n".repeat(100_000) + "}\n";
    c.sendNotification("textDocument/didOpen", {
      textDocument: { uri: big, languageId: "nazm", version: 1, text },
    });
    const busy = c.sendRequest("textDocument/documentSymbol", { textDocument: { uri: big } });
    const source = new CancellationTokenSource();
    const cancelled = failure(
      c.sendRequest("textDocument/hover", { textDocument: { uri }, position: BUMP }, source.token),
    );
    source.cancel();
    const refused = await cancelled;
    assert(refused !== "answered", "the cancelled request was answered in full");
    assertEquals(refused.code, -32800);
    await busy;
    assert((await hoverText(session, uri)).includes("fn bump"));
  } finally {
    await session.close();
  }
});

Deno.test("lsp protocol: .nz files are watched where the client registers watchers", async () => {
  const dir = workspace(PROGRAM);
  const watching = await startLsp(dir, {
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
  });
  const plain = await startLsp(dir, { capabilities: {} });
  try {
    const uri = uriOf(dir, "main.nz");
    const c = watching.connection;
    await c.sendRequest("workspace/symbol", { query: "" });
    assertEquals(
      watching.registered.flatMap((p) => p.registrations.map((r) => [r.method, r.registerOptions])),
      [["workspace/didChangeWatchedFiles", { watchers: [{ globPattern: "**/*.nz" }] }]],
    );
    await plain.connection.sendRequest("workspace/symbol", { query: "" });
    assertEquals(plain.registered, []);
    // A change on disk to a file no one has open, as the watcher reports it.
    await c.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "nazm", version: 1, text: MAIN },
    });
    await watching.diagnostics(uri);
    const since = watching.published.length;
    Deno.writeTextFileSync(
      join(dir, "geo", "shapes.nz"),
      PROGRAM["geo/shapes.nz"].replace("pub fn area", "pub fn surface"),
    );
    await c.sendNotification("workspace/didChangeWatchedFiles", {
      changes: [{ uri: uriOf(dir, "geo/shapes.nz"), type: 2 }],
    });
    const stale = await watching.diagnostics(uri, (p) => p.diagnostics.length > 0, since);
    assert(stale.diagnostics.some((d) => String(d.message).includes("area")));
  } finally {
    await watching.close();
    await plain.close();
  }
});
