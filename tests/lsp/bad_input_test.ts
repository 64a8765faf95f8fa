/**
 * `nazm lsp` under bad input: each gets a clear error or an ignored
 * notification, the server keeps serving, and `exit` ends it.
 */
import { join } from "node:path";
import type { Hover } from "vscode-languageserver/node";
import { assert, assertEquals } from "../support/assert.ts";
import { type LspSession, uriOf } from "../support/lsp.ts";
import { BUMP, failure, PROGRAM, started } from "./fixtures.ts";

const MAIN = PROGRAM["main.nz"];

async function serving(session: LspSession, uri: string): Promise<void> {
  const hover: Hover = await session.connection.sendRequest("textDocument/hover", {
    textDocument: { uri },
    position: BUMP,
  });
  assert((hover.contents as { value: string }).value.includes("fn bump"), JSON.stringify(hover));
}

Deno.test("lsp bad input: a 50 MB buffer, in the compilation and outside it", async () => {
  const { dir, session, uri } = await started();
  try {
    const big = "// " + "x".repeat(50 * 1024 * 1024) + "\n";
    const shapes = uriOf(dir, "geo/shapes.nz");
    await session.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: shapes, languageId: "nazm", version: 1, text: big },
    });
    const refused = await session.diagnostics(shapes, (p) => p.diagnostics.length > 0);
    assert(
      refused.diagnostics[0].message.toString().includes("over the limit"),
      String(refused.diagnostics[0].message),
    );
    // Requests on it are answered from the buffer alone, which is not parsed either.
    for (
      const method of [
        "textDocument/completion",
        "textDocument/hover",
        "textDocument/signatureHelp",
      ]
    ) {
      const answer = await session.connection.sendRequest(method, {
        textDocument: { uri: shapes },
        position: { line: 0, character: 5 },
      });
      assert(answer === null || (Array.isArray(answer) && answer.length === 0), method);
    }
    const outside = uriOf(dir, "big.nz");
    await session.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: outside, languageId: "nazm", version: 1, text: big },
    });
    const unparsed = await session.diagnostics(outside);
    assert(unparsed.diagnostics[0].message.toString().includes("not analysed"));
    await session.connection.sendNotification("textDocument/didClose", {
      textDocument: { uri: shapes },
    });
    await serving(session, uri);
  } finally {
    await session.close();
  }
});

Deno.test("lsp bad input: binary garbage and 100,000 nested parentheses", async () => {
  const { session, uri } = await started();
  try {
    const bytes = new Uint8Array(200_000);
    let seed = 7;
    for (let i = 0; i < bytes.length; i++) {
      bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    }
    const garbage = new TextDecoder().decode(bytes);
    let version = 2;
    for (
      const text of [garbage, "fn main() -> Unit {\n  let x = " + "(".repeat(100_000) + "1;\n}\n"]
    ) {
      const since = session.published.length;
      await session.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
      const published = await session.diagnostics(uri, (p) => p.version === version, since);
      assert(published.diagnostics.length > 0);
      for (const method of ["textDocument/semanticTokens/full", "textDocument/documentSymbol"]) {
        await session.connection.sendRequest(method, { textDocument: { uri } });
      }
      await session.connection.sendRequest("textDocument/formatting", {
        textDocument: { uri },
        options: { tabSize: 2, insertSpaces: true },
      }).catch(() => {});
      version++;
    }
    await session.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ text: MAIN }],
    });
    await serving(session, uri);
  } finally {
    await session.close();
  }
});

Deno.test("lsp bad input: a file deleted under an open buffer", async () => {
  const { dir, session, uri } = await started();
  try {
    const shapes = uriOf(dir, "geo/shapes.nz");
    await session.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: shapes, languageId: "nazm", version: 1, text: PROGRAM["geo/shapes.nz"] },
    });
    Deno.removeSync(join(dir, "geo", "shapes.nz"));
    await session.connection.sendNotification("workspace/didChangeWatchedFiles", {
      changes: [{ uri: shapes, type: 3 }],
    });
    // The open buffer stands for the file: still analysed, no diagnostic.
    await serving(session, uri);
    const since = session.published.length;
    await session.connection.sendNotification("textDocument/didClose", {
      textDocument: { uri: shapes },
    });
    const missing = await session.diagnostics(uri, (p) => p.diagnostics.length > 0, since);
    assert(
      missing.diagnostics.some((d) => d.message.toString().includes("geo.shapes")),
      JSON.stringify(missing),
    );
  } finally {
    await session.close();
  }
});

Deno.test("lsp bad input: didChange for a document never opened is ignored", async () => {
  const { dir, session, uri } = await started();
  try {
    await session.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: uriOf(dir, "nowhere.nz"), version: 2 },
      contentChanges: [{ text: "garbage" }],
    });
    await session.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: uriOf(dir, "geo/shapes.nz"), version: 2 },
      contentChanges: [{ text: "garbage" }],
    });
    await serving(session, uri);
    assertEquals(Deno.readTextFileSync(join(dir, "geo", "shapes.nz")), PROGRAM["geo/shapes.nz"]);
  } finally {
    await session.close();
  }
});

Deno.test("lsp bad input: null params get InvalidParams naming a field, and malformed notifications are ignored with a warning", async () => {
  const { session, uri } = await started();
  try {
    // Each request once with `null` params, which JSON-RPC does not allow: the
    // library used to read a field of them first and fail as an internal error.
    const requests: Record<string, string> = {
      "textDocument/hover": "`textDocument.uri` is not a string",
      "textDocument/definition": "`textDocument.uri` is not a string",
      "textDocument/references": "`context.includeDeclaration` is not a boolean",
      "textDocument/documentHighlight": "`textDocument.uri` is not a string",
      "textDocument/prepareRename": "`textDocument.uri` is not a string",
      "textDocument/rename": "`newName` is not a string",
      "textDocument/completion": "`textDocument.uri` is not a string",
      "textDocument/signatureHelp": "`textDocument.uri` is not a string",
      "textDocument/documentSymbol": "`textDocument.uri` is not a string",
      "workspace/symbol": "`query` is not a string",
      "textDocument/formatting": "`textDocument.uri` is not a string",
      "textDocument/codeAction": "`range` is not a range",
      "codeAction/resolve": "`title` is not a string",
      "textDocument/semanticTokens/full": "`textDocument.uri` is not a string",
      "textDocument/inlayHint": "`range` is not a range",
    };
    for (const [method, why] of Object.entries(requests)) {
      const response = await session.raw(method, null);
      assertEquals(response.error?.code, -32602, `${method}: ${JSON.stringify(response)}`);
      assertEquals(response.error?.message, `invalid params: ${why}`, method);
    }
    const resolveEmpty = await session.raw("codeAction/resolve", {});
    assertEquals(resolveEmpty.error?.code, -32602, JSON.stringify(resolveEmpty));

    const before = session.logged.length;
    const notifications: [string, unknown][] = [
      ["textDocument/didOpen", null],
      ["textDocument/didChange", null],
      ["textDocument/didChange", { textDocument: { uri, version: 9 }, contentChanges: "text" }],
      // One good change and one without text: none is applied.
      ["textDocument/didChange", {
        textDocument: { uri, version: 9 },
        contentChanges: [{ text: "garbage" }, { range: null, text: 5 }],
      }],
      ["textDocument/didClose", {}],
    ];
    for (const [method, params] of notifications) session.rawNotification(method, params);
    await serving(session, uri);
    const warnings = session.logged.slice(before).map((m) => m.message);
    assertEquals(warnings, [
      "didOpen without a string `uri` and `text`: ignored",
      ...Array(3).fill(
        "didChange without a string `textDocument.uri` and an array of changes, each a string `text` with at most a range: ignored",
      ),
      "didClose without a string `textDocument.uri`: ignored",
    ]);
  } finally {
    await session.close();
  }
});

Deno.test("lsp bad input: out-of-range positions and unknown documents get clear errors", async () => {
  const { dir, session, uri } = await started();
  try {
    const c = session.connection;
    const line = await failure(c.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: { line: 999, character: 0 },
    }));
    assert(line !== "answered");
    assertEquals(line.code, -32602);
    assert(
      line.message.startsWith("line 999 is past the end of the document (15 lines)"),
      line.message,
    );
    const negative = await failure(c.sendRequest("textDocument/definition", {
      textDocument: { uri },
      position: { line: -1, character: 2 },
    }));
    assert(negative !== "answered" && negative.code === -32602);
    // Past the end of a line is the line's end, as the protocol says: there, the
    // hover of the name that ends the line (`import geo.shapes`).
    const end: Hover | null = await c.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: { line: 1, character: 500 },
    });
    assertEquals(end?.range?.end, { line: 1, character: MAIN.split("\n")[1].length });
    const unknown = await failure(c.sendRequest("textDocument/hover", {
      textDocument: { uri: uriOf(dir, "elsewhere.nz") },
      position: { line: 0, character: 0 },
    }));
    assert(
      unknown !== "answered" && unknown.message.toString().includes("neither open nor a file of"),
    );
    const notFile = await failure(c.sendRequest("textDocument/documentSymbol", {
      textDocument: { uri: "untitled:Untitled-1" },
    }));
    assert(notFile !== "answered" && notFile.code === -32602);
    await serving(session, uri);
  } finally {
    await session.close();
  }
});

Deno.test("lsp bad input: requests after shutdown are refused, and exit ends the server", async () => {
  const { session, uri } = await started();
  await session.connection.sendRequest("shutdown");
  const after = await failure(session.connection.sendRequest("textDocument/hover", {
    textDocument: { uri },
    position: BUMP,
  }));
  assert(after !== "answered");
  assertEquals(after.code, -32600);
  await session.connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: "" }],
  });
  await session.connection.sendNotification("exit");
  assertEquals(await session.exited, 0);
  session.connection.dispose();
});

Deno.test("lsp bad input: exit without shutdown ends the server with status 1", async () => {
  const { session } = await started();
  await session.connection.sendNotification("exit");
  assertEquals(await session.exited, 1);
  session.connection.dispose();
});

Deno.test("lsp bad input: a closed stdin ends the server", async () => {
  const { session } = await started();
  session.child.stdin!.end();
  assertEquals(await session.exited, 1);
  session.connection.dispose();
});

Deno.test("lsp bad input: binary garbage on the wire is dropped, and the next message is served", async () => {
  const { session, uri } = await started();
  try {
    const garbage = new Uint8Array(4096);
    for (let i = 0; i < garbage.length; i++) {
      const b = (i * 131 + 7) % 256;
      garbage[i] = b === 13 ? 0 : b;
    }
    // A header block without Content-Length, then a message whose body is not JSON.
    const body = new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x80]);
    session.child.stdin!.write(new Uint8Array([...garbage, 13, 10, 13, 10]));
    session.child.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`);
    session.child.stdin!.write(body);
    // vscode-jsonrpc drops a header block without Content-Length and reads on only when more
    // data arrives: a message read in the same chunk as the garbage waits for the next one. A
    // client always sends more; here, a notification every half second that no one handles.
    const nudge = setInterval(() => session.connection.sendNotification("$/nazm/nudge"), 500);
    try {
      await serving(session, uri);
    } finally {
      clearInterval(nudge);
    }
  } finally {
    await session.close();
  }
});
