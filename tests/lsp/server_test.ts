/**
 * `nazm lsp` through a real JSON-RPC client over its stdio, with the exact
 * permissions of deno.json's `lsp` task: every feature on unsaved buffers,
 * answered from the same facts nazm-mcp publishes, and the disk untouched.
 */
import { join } from "node:path";
import type {
  CodeAction,
  CompletionItem,
  Hover,
  InlayHint,
  Location,
  SignatureHelp,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { assert, assertEquals } from "../support/assert.ts";
import { REPO } from "../support/server.ts";
import { LSP_FLAGS, type LspSession, startLsp, uriOf, workspace } from "../support/lsp.ts";
import { PROGRAM } from "./fixtures.ts";

const MAIN = PROGRAM["main.nz"];

async function opened(files = PROGRAM, options = {}) {
  const dir = workspace(files);
  const session = await startLsp(dir, options);
  const uri = uriOf(dir, "main.nz");
  await session.connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nazm", version: 1, text: files["main.nz"] },
  });
  return { dir, session, uri };
}

/** Replaces the whole buffer (a change without a range). */
async function setText(session: LspSession, uri: string, version: number, text: string) {
  await session.connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version },
    contentChanges: [{ text }],
  });
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create("x", "nazm", 0, text), [...edits]);
}

function at(text: string, needle: string, delta = 0) {
  const offset = text.indexOf(needle) + delta;
  assert(offset >= delta, `${needle} not in the text`);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before[before.length - 1].length };
}

Deno.test("lsp: the task's permissions are read and one environment variable, and nothing else", () => {
  const tasks = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json"))).tasks;
  assertEquals(
    tasks.lsp,
    `deno run --lock=server.lock --frozen ${LSP_FLAGS.join(" ")} src/cli/main.ts lsp`,
  );
});

Deno.test("lsp: diagnostics of an unsaved buffer as it changes, linked to docs/diagnostics.md", async () => {
  const { dir, session, uri } = await opened();
  try {
    const first = await session.diagnostics(uri);
    assertEquals(first.diagnostics.map((d) => d.code), []);
    const since = session.published.length;
    await setText(session, uri, 2, MAIN.replace("bump(41)", "bum(41)"));
    const typed = await session.diagnostics(uri, (p) => p.version === 2, since);
    const unknown = typed.diagnostics.find((d) => d.code === "N0201")!;
    assert(unknown !== undefined, JSON.stringify(typed));
    assertEquals(unknown.range, { start: at(MAIN, "bump(41)"), end: at(MAIN, "bump(41)", 3) });
    assert(unknown.codeDescription!.href.endsWith("/docs/diagnostics.md#n0201"));
    assert(Deno.statSync(new URL(unknown.codeDescription!.href).pathname).isFile);
    assertEquals(unknown.source, "nazm");
    // The disk still has the saved text: nothing was written.
    assertEquals(Deno.readTextFileSync(join(dir, "main.nz")), MAIN);
  } finally {
    await session.close();
  }
});

Deno.test("lsp: a code action plans the compiler's fix through nazm.semantic_patch's planner", async () => {
  const { session, uri } = await opened();
  try {
    const broken = MAIN.replace("bump(41)", "bum(41)");
    const since = session.published.length;
    await setText(session, uri, 2, broken);
    const published = await session.diagnostics(uri, (p) => p.version === 2, since);
    const unknown = published.diagnostics.find((d) => d.code === "N0201")!;
    const actions: CodeAction[] = await session.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: unknown.range,
      context: { diagnostics: [unknown] },
    });
    const use = actions.find((a) => a.title === "use `bump`")!;
    assert(use !== undefined, JSON.stringify(actions));
    assertEquals(use.isPreferred, false); // needs review
    assertEquals(use.edit, undefined); // planned when picked
    const resolved: CodeAction = await session.connection.sendRequest("codeAction/resolve", use);
    const edits = resolved.edit!.changes![uri];
    assertEquals(applyEdits(broken, edits), MAIN);
    // The unused import's removal is automatic: preferred.
    const unusedImport = MAIN.replace("  let p = shapes.origin();\n", "").replace(" + p.x", "");
    const before = session.published.length;
    await setText(session, uri, 3, unusedImport);
    const warned = await session.diagnostics(uri, (p) => p.version === 3, before);
    const unused = warned.diagnostics.find((d) => d.code === "N0402")!;
    const removal: CodeAction[] = await session.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: unused.range,
      context: { diagnostics: [unused] },
    });
    assertEquals(removal.map((a) => a.isPreferred), [true]);
    // A plan for a state the buffers no longer have is refused, as nazm.semantic_patch refuses it.
    await setText(session, uri, 4, MAIN);
    const stale = await session.connection.sendRequest("codeAction/resolve", use).then(
      () => "answered",
      (e: Error) => e.message,
    );
    assert(String(stale).startsWith("stale_state"), String(stale));
  } finally {
    await session.close();
  }
});

Deno.test("lsp: code actions carry their edit when the client cannot resolve", async () => {
  const { session, uri } = await opened(
    { ...PROGRAM, "main.nz": MAIN.replace("bump(41)", "bum(41)") },
    { capabilities: {} },
  );
  try {
    const published = await session.diagnostics(uri);
    const unknown = published.diagnostics.find((d) => d.code === "N0201")!;
    const actions: CodeAction[] = await session.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: unknown.range,
      context: { diagnostics: [unknown] },
    });
    const edits = actions.find((a) => a.title === "use `bump`")!.edit!.changes![uri];
    assertEquals(applyEdits(MAIN.replace("bump(41)", "bum(41)"), edits), MAIN);
  } finally {
    await session.close();
  }
});

Deno.test("lsp: hover, definition, references, highlights, symbols", async () => {
  const { dir, session, uri } = await opened();
  try {
    const c = session.connection;
    const call = at(MAIN, "bump(41)", 1);
    const hover: Hover = await c.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: call,
    });
    assertEquals(
      (hover.contents as { value: string }).value,
      "```nazm\nfn bump(n: Int) -> Int\n```\n\nAdds one.",
    );
    const local: Hover = await c.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: at(MAIN, "count + p", 1),
    });
    assertEquals((local.contents as { value: string }).value, "```nazm\nlet count: Int\n```");
    const def: Location = await c.sendRequest("textDocument/definition", {
      textDocument: { uri },
      position: at(MAIN, "area(s)"),
    });
    const shapes = PROGRAM["geo/shapes.nz"];
    assertEquals(def, {
      uri: uriOf(dir, "geo/shapes.nz"),
      range: { start: at(shapes, "area("), end: at(shapes, "area(", 4) },
    });
    const refs: Location[] = await c.sendRequest("textDocument/references", {
      textDocument: { uri },
      position: call,
      context: { includeDeclaration: true },
    });
    assertEquals(
      refs.map((r) => r.range.start),
      [at(MAIN, "bump("), call].map((p) => ({
        ...p,
        character: p.character - (p === call ? 1 : 0),
      })),
    );
    const highlights: { kind: number }[] = await c.sendRequest("textDocument/documentHighlight", {
      textDocument: { uri },
      position: at(MAIN, "count =", 1),
    });
    assertEquals(highlights.map((h) => h.kind), [3, 2]); // the declaration writes, the use reads
    const symbols: { name: string; children?: { name: string }[] }[] = await c.sendRequest(
      "textDocument/documentSymbol",
      { textDocument: { uri: uriOf(dir, "geo/shapes.nz") } },
    );
    assertEquals(symbols.map((s) => s.name), ["Shape", "Point", "origin", "area"]);
    assertEquals(symbols[0].children!.map((s) => s.name), ["Circle", "Square"]);
    const found: { name: string; containerName: string }[] = await c.sendRequest(
      "workspace/symbol",
      { query: "ar" },
    );
    assertEquals(found.map((s) => `${s.containerName}::${s.name}`), ["geo.shapes::area"]);
  } finally {
    await session.close();
  }
});

Deno.test("lsp: rename through the planner, its refusals, prepareRename", async () => {
  const { session, uri } = await opened();
  try {
    const c = session.connection;
    const call = at(MAIN, "bump(41)", 2);
    const range = await c.sendRequest("textDocument/prepareRename", {
      textDocument: { uri },
      position: call,
    });
    assertEquals(range, { start: at(MAIN, "bump(41)"), end: at(MAIN, "bump(41)", 4) });
    const edit: WorkspaceEdit = await c.sendRequest("textDocument/rename", {
      textDocument: { uri },
      position: call,
      newName: "increment",
    });
    assertEquals(applyEdits(MAIN, edit.changes![uri]), MAIN.replaceAll("bump", "increment"));
    const refusal = (p: Promise<unknown>) => p.then(() => "answered", (e: Error) => e.message);
    // The same refusals as nazm.semantic_patch: an exported definition, a name taken.
    assert(
      (await refusal(c.sendRequest("textDocument/prepareRename", {
        textDocument: { uri },
        position: at(MAIN, "area(s)"),
      }))).startsWith("exported_definition: "),
    );
    assert(
      (await refusal(c.sendRequest("textDocument/rename", {
        textDocument: { uri },
        position: call,
        newName: "main",
      }))).startsWith("name_conflict: "),
    );
    assert(
      (await refusal(c.sendRequest("textDocument/prepareRename", {
        textDocument: { uri },
        position: { line: 0, character: 0 },
      }))).startsWith("not_a_definition: "),
    );
    // A local.
    const local: WorkspaceEdit = await c.sendRequest("textDocument/rename", {
      textDocument: { uri },
      position: at(MAIN, "count =", 1),
      newName: "total",
    });
    assertEquals(applyEdits(MAIN, local.changes![uri]), MAIN.replaceAll("count", "total"));
  } finally {
    await session.close();
  }
});

Deno.test("lsp: formatting, and its refusal on a syntax error", async () => {
  const messy = MAIN.replace("n + 1", "n   +   1");
  const { session, uri } = await opened({ ...PROGRAM, "main.nz": messy });
  try {
    const c = session.connection;
    const options = { tabSize: 2, insertSpaces: true };
    const edits: TextEdit[] = await c.sendRequest("textDocument/formatting", {
      textDocument: { uri },
      options,
    });
    assertEquals(applyEdits(messy, edits), MAIN);
    await setText(session, uri, 2, MAIN.replace("n + 1", "n + "));
    const refused = await c.sendRequest("textDocument/formatting", {
      textDocument: { uri },
      options,
    })
      .then(() => "answered", (e: Error) => e.message);
    assert(
      /^not formatted: syntax error N01\d\d at line 7, column 1: /.test(String(refused)),
      String(refused),
    );
  } finally {
    await session.close();
  }
});

Deno.test("lsp: completion of scope names, fields, variants and imports", async () => {
  const { session, uri } = await opened();
  try {
    const c = session.connection;
    const labels = async (text: string, version: number, needle: string, delta: number) => {
      await setText(session, uri, version, text);
      const items: CompletionItem[] = await c.sendRequest("textDocument/completion", {
        textDocument: { uri },
        position: at(text, needle, delta),
      });
      return items.map((i) => i.label);
    };
    const inBody = await labels(MAIN, 2, "  print(", 2);
    for (
      const name of [
        "count",
        "s",
        "p",
        "bump",
        "main",
        "area",
        "Shape",
        "shapes",
        "print",
        "Some",
        "let",
      ]
    ) {
      assert(inBody.includes(name), `${name} not offered: ${inBody}`);
    }
    assert(!inBody.includes("origin"), "origin is not imported by name");
    const variants = await labels(MAIN.replace("Shape.Circle(2)", "Shape.Ci"), 3, "Shape.Ci", 8);
    assertEquals(variants, ["Circle", "Square"]);
    const fields = await labels(MAIN.replace("p.x", "p."), 4, "p.)", 2);
    assertEquals(fields, ["x", "y"]);
    const members = await labels(MAIN.replace("shapes.origin()", "shapes."), 5, "shapes.;", 7);
    assertEquals(members.sort(), ["Point", "Shape", "area", "origin"]);
    const modules = await labels(
      MAIN.replace("import geo.shapes as", "import geo."),
      6,
      "import geo.",
      11,
    );
    assertEquals(modules, ["shapes"]);
    const names = await labels(MAIN.replace("{Shape, area}", "{Shape, "), 7, "{Shape, ", 8);
    assertEquals(names.sort(), ["Point", "Shape", "area", "origin"]);
  } finally {
    await session.close();
  }
});

Deno.test("lsp: signature help, inlay hints for inferred lets, semantic tokens", async () => {
  const { session, uri } = await opened();
  try {
    const c = session.connection;
    const help: SignatureHelp = await c.sendRequest("textDocument/signatureHelp", {
      textDocument: { uri },
      position: at(MAIN, "41)", 1),
    });
    assertEquals(help.signatures[0].label, "fn bump(n: Int) -> Int");
    assertEquals(help.signatures[0].parameters, [{ label: [8, 14] }]);
    assertEquals(help.activeParameter, 0);
    const hints: InlayHint[] = await c.sendRequest("textDocument/inlayHint", {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } },
    });
    assertEquals(hints.map((h) => [h.position, h.label]), [
      [at(MAIN, " = bump"), ": Int"],
      [at(MAIN, " = Shape"), ": Shape"],
      [at(MAIN, " = shapes"), ": Point"],
    ]);
    const tokens: { data: number[] } = await c.sendRequest("textDocument/semanticTokens/full", {
      textDocument: { uri },
    });
    assertEquals(tokens.data.length % 5, 0);
    // The first token is `import`, a keyword (type 0), at 0:0, 6 long.
    assertEquals(tokens.data.slice(0, 5), [0, 0, 6, 0, 0]);
  } finally {
    await session.close();
  }
});

Deno.test("lsp: a file outside the compilation is answered from its syntax alone", async () => {
  const { dir, session } = await opened();
  try {
    const c = session.connection;
    const outside = uriOf(dir, "scratch/notes.nz");
    await c.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri: outside,
        languageId: "nazm",
        version: 1,
        text: "fn f() -> Int {\n  1 +\n",
      },
    });
    const published = await session.diagnostics(outside, (p) => p.diagnostics.length > 0);
    assert(published.diagnostics.every((d) => String(d.code).startsWith("N01")));
    const symbols: { name: string }[] = await c.sendRequest("textDocument/documentSymbol", {
      textDocument: { uri: outside },
    });
    assertEquals(symbols.map((s) => s.name), ["f"]);
    assertEquals(
      await c.sendRequest("textDocument/hover", {
        textDocument: { uri: outside },
        position: { line: 0, character: 3 },
      }),
      null,
    );
    const refused = await c.sendRequest("textDocument/rename", {
      textDocument: { uri: outside },
      position: { line: 0, character: 3 },
      newName: "g",
    }).then(() => "answered", (e: Error) => e.message);
    assert(String(refused).includes("syntax alone"), String(refused));
  } finally {
    await session.close();
  }
});

Deno.test("lsp: initializationOptions.root names the compilation root", async () => {
  const dir = workspace({ "app/entry.nz": MAIN, "app/geo/shapes.nz": PROGRAM["geo/shapes.nz"] });
  const session = await startLsp(dir, { initializationOptions: { root: "app/entry.nz" } });
  try {
    const uri = uriOf(dir, "app/entry.nz");
    await session.connection.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri,
        languageId: "nazm",
        version: 1,
        text: MAIN.replace("bump(41)", "bum(41)"),
      },
    });
    const published = await session.diagnostics(
      uri,
      (p) => p.diagnostics.some((d) => d.code === "N0201"),
    );
    assert(published.diagnostics.length > 0);
  } finally {
    await session.close();
  }
});

Deno.test("lsp: the client's processId does not end a server that may not signal processes", async () => {
  const { session, uri } = await opened(PROGRAM, { processId: Deno.pid });
  try {
    // The library polls the client every 3 s; without permission to signal, it would exit.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const hover = await session.connection.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: at(MAIN, "bump(41)", 1),
    });
    assert(hover !== null);
  } finally {
    await session.close();
  }
  assertEquals(await session.exited, 0);
});

Deno.test("lsp: typing does not queue analyses: edits received together share one", async () => {
  const { session, uri } = await opened();
  try {
    await session.diagnostics(uri);
    const since = session.published.length;
    const edits = 30;
    for (let v = 2; v <= edits + 1; v++) {
      // Not awaited one by one: they leave together, as keystrokes do during an analysis.
      session.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version: v },
        contentChanges: [{ text: MAIN.replace("bump(41)", `bump(${v})`) }],
      });
    }
    await session.diagnostics(uri, (p) => p.version === edits + 1, since);
    const analysed = session.published.slice(since).filter((p) => p.uri === uri);
    assert(analysed.length < 10, `${analysed.length} analyses for ${edits} edits`);
  } finally {
    await session.close();
  }
});
