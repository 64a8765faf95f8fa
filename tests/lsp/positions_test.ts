/**
 * `nazm lsp` positions as a client counts them: UTF-16 units over lines
 * that end at LF, CR LF or a lone CR, in every answer that carries a range
 * or a position — read back through the protocol's own document model.
 */
import type {
  Hover,
  InlayHint,
  Location,
  PublishDiagnosticsParams,
  SignatureHelp,
  WorkspaceEdit,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { assert, assertEquals } from "../support/assert.ts";
import { decodeTokens, type LspSession, startLsp, uriOf, workspace } from "../support/lsp.ts";

interface Opened {
  session: LspSession;
  uri: string;
  document: TextDocument;
  published: PublishDiagnosticsParams;
}

async function opened(text: string): Promise<Opened> {
  const dir = workspace({ "main.nz": text });
  const session = await startLsp(dir);
  const uri = uriOf(dir, "main.nz");
  await session.connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nazm", version: 1, text },
  });
  const published = await session.diagnostics(uri);
  return { session, uri, document: TextDocument.create(uri, "nazm", 1, text), published };
}

function at(document: TextDocument, needle: string, delta = 0) {
  const offset = document.getText().indexOf(needle);
  assert(offset >= 0, `${needle} not in the text`);
  return document.positionAt(offset + delta);
}

/** Each semantic token's text, read through the client's model of the document. */
function tokenTexts(document: TextDocument, data: number[]): string[] {
  return decodeTokens(data).map(({ line, character, length }) =>
    document.getText({ start: { line, character }, end: { line, character: character + length } })
  );
}

/** What every answer that carries a position points at, read back in the client's model. */
async function everyAnswer(text: string) {
  const { session, uri, document, published } = await opened(text);
  try {
    const c = session.connection;
    const call = at(document, "helper(a)", 2);
    const hover: Hover = await c.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: call,
    });
    const definition: Location = await c.sendRequest("textDocument/definition", {
      textDocument: { uri },
      position: call,
    });
    const references: Location[] = await c.sendRequest("textDocument/references", {
      textDocument: { uri },
      position: call,
      context: { includeDeclaration: true },
    });
    const rename: WorkspaceEdit = await c.sendRequest("textDocument/rename", {
      textDocument: { uri },
      position: call,
      newName: "assist",
    });
    const hints: InlayHint[] = await c.sendRequest("textDocument/inlayHint", {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: document.lineCount, character: 0 } },
    });
    const help: SignatureHelp = await c.sendRequest("textDocument/signatureHelp", {
      textDocument: { uri },
      position: at(document, "helper(a)", 7),
    });
    const tokens: { data: number[] } = await c.sendRequest("textDocument/semanticTokens/full", {
      textDocument: { uri },
    });
    return {
      diagnostics: published.diagnostics.map((d) => document.getText(d.range)),
      hover: document.getText(hover.range!),
      definition: document.getText(definition.range),
      definitionLine: definition.range.start.line,
      references: references.map((r) => document.getText(r.range)),
      renamed: TextDocument.applyEdits(document, rename.changes![uri]),
      hints: hints.map((
        h,
      ) => [
        document.getText({ start: { line: h.position.line, character: 0 }, end: h.position }),
        h.label,
      ]),
      help: help.signatures[0].label,
      tokens: tokenTexts(document, tokens.data),
    };
  } finally {
    await session.close();
  }
}

// No line comment: with lone CRs for line breaks, one would run to the end of the file.
const PROGRAM = [
  "/* Café 😀 */",
  "fn helper(x: Int) -> Int {",
  '\tlet s = "😀 中文"; x + len(s)',
  "}",
  "",
  "fn main() -> Unit {",
  '  let e = "😀😀"; let a = helper(len(e)); let b = nope;',
  "  print(to_string(helper(a) + b))",
  "}",
].join("\n");

function expected(text: string) {
  return {
    diagnostics: ["nope"],
    hover: "helper",
    definition: "helper",
    definitionLine: 1,
    references: ["helper", "helper", "helper"],
    renamed: text.replaceAll("helper", "assist"),
    hints: [
      ["\tlet s", ": String"],
      ["  let e", ": String"],
      ['  let e = "😀😀"; let a', ": Int"],
    ],
    help: "fn helper(x: Int) -> Int",
    tokens: [
      "/* Café 😀 */",
      "fn",
      "helper",
      "x",
      "Int",
      "->",
      "Int",
      "let",
      "s",
      "=",
      '"😀 中文"',
      "x",
      "+",
      "len",
      "s",
      "fn",
      "main",
      "->",
      "Unit",
      "let",
      "e",
      "=",
      '"😀😀"',
      "let",
      "a",
      "=",
      "helper",
      "len",
      "e",
      "let",
      "b",
      "=",
      "print",
      "to_string",
      "helper",
      "a",
      "+",
      "b",
    ],
  };
}

Deno.test("lsp positions: non-ASCII text and tabs before names, no final newline", async () => {
  assertEquals(await everyAnswer(PROGRAM), expected(PROGRAM));
});

Deno.test("lsp positions: CR LF line breaks", async () => {
  const text = PROGRAM.replaceAll("\n", "\r\n") + "\r\n";
  assertEquals(await everyAnswer(text), expected(text));
});

Deno.test("lsp positions: a lone CR ends a line for the client, not for the language", async () => {
  // The language reads `\r` as whitespace; the client starts a line after it.
  const text = PROGRAM.replaceAll("\n", "\r") + "\n";
  assertEquals(await everyAnswer(text), expected(text));
});

Deno.test("lsp positions: at every position of a program, whole and broken, no request fails inside", async () => {
  // Each answer is an answer or a refusal the client can show (RequestFailed); an internal
  // error would be a bug reached by pointing somewhere.
  const broken = PROGRAM.replace("x + len(s)", "x + len(").replace("let b", "let { b");
  for (const text of [PROGRAM, broken, broken.replaceAll("\n", "\r")]) {
    const { session, uri, document } = await opened(text);
    try {
      const c = session.connection;
      const internal: string[] = [];
      for (let i = 0; i <= text.length; i++) {
        const at = { textDocument: { uri }, position: document.positionAt(i) };
        const requests: [string, unknown][] = [
          ["textDocument/hover", at],
          ["textDocument/definition", at],
          ["textDocument/references", { ...at, context: { includeDeclaration: true } }],
          ["textDocument/documentHighlight", at],
          ["textDocument/prepareRename", at],
          ["textDocument/rename", { ...at, newName: "renamed" }],
          ["textDocument/completion", at],
          ["textDocument/signatureHelp", at],
        ];
        await Promise.all(
          requests.map(([method, params]) =>
            c.sendRequest(method, params).catch((e: { code: number; message: string }) => {
              if (e.code !== -32803) internal.push(`${method} at ${i}: ${e.code} ${e.message}`);
            })
          ),
        );
      }
      assertEquals(internal, []);
    } finally {
      await session.close();
    }
  }
});
