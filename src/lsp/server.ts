/**
 * `nazm lsp`: the Language Server Protocol over stdio, on
 * vscode-languageserver. It reads the workspace's files and writes nothing:
 * every edit it plans goes back to the editor as a WorkspaceEdit.
 *
 * Diagnostics are published after edits settle ({@link DEBOUNCE_MS}): edits
 * that arrive while an analysis runs are all taken by the next one, so typing
 * never queues analyses. A request analyses the buffers as they are when it
 * is answered, so no answer is about text the editor no longer has.
 *
 * @module
 */
import {
  type CodeAction,
  CodeActionKind,
  type Connection,
  createConnection,
  type DataCallback,
  DidChangeWatchedFilesNotification,
  type Disposable,
  ErrorCodes,
  type InitializeResult,
  LSPErrorCodes,
  Message,
  MessageType,
  ResponseError,
  type ResponseMessage,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
} from "vscode-languageserver/node";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { VERSION } from "../base/mod.ts";
import {
  codeActions,
  compilationDiagnostics,
  type FixData,
  formatDocument,
  prepareRename,
  rename,
  resolveFix,
  syntaxDiagnostics,
} from "./edits.ts";
import {
  completion,
  definition,
  documentSymbols,
  highlights,
  hover,
  inlayHints,
  references,
  semanticTokens,
  signatureHelp,
  TOKEN_MODIFIERS,
  TOKEN_TYPES,
  workspaceSymbols,
} from "./features.ts";
import { Frames } from "./frames.ts";
import {
  contentChanges,
  documentUri,
  includeDeclaration,
  position,
  range,
  string,
} from "./params.ts";
import { OutOfRange } from "./text.ts";
import { type Analysis, type Located, textMapOf, Workspace } from "./workspace.ts";

/**
 * How long edits must pause before diagnostics are computed. Short: an
 * analysis blocks the event loop, so every edit that arrives while one runs
 * is read before the next timer fires and joins the next analysis anyway;
 * the pause only gathers a burst sent back to back (a paste, a multi-cursor
 * edit), which takes a millisecond or two. Keystrokes come tens of
 * milliseconds apart: a longer pause would only add to every one's wait.
 */
export const DEBOUNCE_MS = 5;

/**
 * Two repairs to what clients send, before the library sees it:
 *
 * - The client's process id asks the library to poll that process, which
 *   needs permission to signal processes (`--allow-run`); a client that
 *   goes away closes stdin, which ends the server anyway. So the id is
 *   dropped.
 * - JSON-RPC allows no `null` params. The library reads a field of a
 *   request's params before our handler runs, so a `null` failed there as
 *   an internal error (-32603, "Cannot read properties of null"); as `{}`
 *   it reaches our checks, and the client learns which field is missing
 *   (InvalidParams).
 */
class Reader extends StreamMessageReader {
  override listen(callback: DataCallback): Disposable {
    return super.listen((message) => {
      if (
        (Message.isRequest(message) || Message.isNotification(message)) && message.params === null
      ) {
        message.params = {};
      }
      if (Message.isRequest(message) && message.method === "initialize") {
        const params = message.params as { processId?: number | null } | undefined;
        if (params !== undefined && params !== null) params.processId = null;
      }
      callback(message);
    });
  }
}

type Compiled = Extract<Located, { kind: "compiled" }>;

class Server {
  readonly #connection: Connection;
  #workspace: Workspace | null = null;
  #resolveCodeActions = false;
  /** Whether the client registers file watchers for the server (dynamic registration). */
  #watchFiles = false;
  /** Why the workspace has no usable compilation root, said after `initialized`. */
  #startupNote: { readonly problem: string; readonly warn: boolean } | null = null;
  #shutDown = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** URIs whose last published diagnostics were not empty. */
  #published = new Set<string>();

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  get workspace(): Workspace {
    if (this.#workspace === null) {
      throw new ResponseError(ErrorCodes.ServerNotInitialized, "not initialized");
    }
    return this.#workspace;
  }

  listen(): void {
    const c = this.#connection;
    c.onInitialize((params): InitializeResult => {
      const folderUri = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? null;
      // No folder (a single file opened): the client's rootPath, else the working directory.
      const folder = folderUri?.startsWith("file:")
        ? fileURLToPath(folderUri)
        : params.rootPath ?? process.cwd();
      const options = params.initializationOptions as { root?: unknown } | null | undefined;
      const root = typeof options?.root === "string" ? options.root : null;
      this.#workspace = new Workspace(folder, root);
      const named = options?.root !== undefined;
      const problem = named && root === null
        ? `initializationOptions.root is not a string (${JSON.stringify(options.root)}): ignored`
        : this.#workspace.problem;
      // Said once the client is initialized: the protocol lets the server speak only then.
      this.#startupNote = problem === null ? null : { problem, warn: named };
      this.#watchFiles =
        params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
      this.#resolveCodeActions =
        params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes("edit") ??
          false;
      return {
        capabilities: {
          textDocumentSync: {
            openClose: true,
            change: TextDocumentSyncKind.Incremental,
            save: { includeText: false },
          },
          hoverProvider: true,
          definitionProvider: true,
          referencesProvider: true,
          documentHighlightProvider: true,
          documentSymbolProvider: true,
          workspaceSymbolProvider: true,
          renameProvider: { prepareProvider: true },
          documentFormattingProvider: true,
          completionProvider: { triggerCharacters: [".", "{"] },
          signatureHelpProvider: { triggerCharacters: ["(", ","] },
          inlayHintProvider: true,
          semanticTokensProvider: {
            legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] },
            full: true,
          },
          codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix], resolveProvider: true },
        },
        serverInfo: { name: "nazm lsp", version: VERSION },
      };
    });
    c.onInitialized(() => {
      if (this.#watchFiles) {
        // Files changed outside the editor (a checkout, a generator) reach the analysis at once,
        // not at the next keystroke. A client that refuses is told why nothing is watched.
        c.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: "**/*.nz" }],
        }).catch((error: Error) =>
          c.console.warn(`files changed outside the editor are not watched: ${error.message}`)
        );
      }
      const note = this.#startupNote;
      if (note === null) return;
      // A root the user named and we cannot use is a warning they must see; a folder
      // without main.nz is common (a file opened on its own), so only logged.
      // A notification, not window.showWarningMessage: that is a request, and a client that
      // does not answer it would reject a promise no one awaits, which ends the process.
      if (note.warn) {
        c.sendNotification(ShowMessageNotification.type, {
          type: MessageType.Warning,
          message: `nazm lsp: ${note.problem}`,
        });
      } else c.console.info(note.problem);
    });
    c.onShutdown(() => {
      this.#shutDown = true;
      if (this.#timer !== null) clearTimeout(this.#timer);
    });

    c.onDidOpenTextDocument(({ textDocument: d }) => {
      if (this.#shutDown) return;
      if (typeof d?.uri !== "string" || typeof d.text !== "string") {
        c.console.warn("didOpen without a string `uri` and `text`: ignored");
        return;
      }
      this.workspace.open(d.uri, d.languageId, d.version, d.text);
      this.#schedule();
    });
    c.onDidChangeTextDocument((p) => {
      if (this.#shutDown) return;
      const uri = documentUri(p);
      const changes = contentChanges(p);
      if (uri instanceof ResponseError || changes === null) {
        c.console.warn(
          "didChange without a string `textDocument.uri` and an array of changes, each a string `text` with at most a range: ignored",
        );
        return;
      }
      const version = p.textDocument.version;
      if (!this.workspace.change(uri, typeof version === "number" ? version : 0, changes)) {
        c.console.warn(`didChange for ${uri}, which is not open: ignored`);
        return;
      }
      this.#schedule();
    });
    c.onDidCloseTextDocument((p) => {
      const uri = documentUri(p);
      if (uri instanceof ResponseError) {
        c.console.warn("didClose without a string `textDocument.uri`: ignored");
        return;
      }
      if (this.#shutDown || !this.workspace.close(uri)) return;
      this.#schedule();
    });
    c.onDidSaveTextDocument(() => {
      if (this.#shutDown) return;
      this.workspace.diskChanged();
      this.#schedule();
    });
    c.onDidChangeWatchedFiles(() => {
      if (this.#shutDown) return;
      this.workspace.diskChanged();
      this.#schedule();
    });

    c.onHover((p) => this.#at(p, null, (l, o) => hover(l.analysis, l.path, o)));
    c.onDefinition((p) =>
      this.#at(p, null, (l, o) => definition(this.workspace, l.analysis, l.path, o))
    );
    c.onReferences((p) => {
      const declaration = includeDeclaration(p);
      if (declaration instanceof ResponseError) return declaration;
      return this.#at(
        p,
        null,
        (l, o) => references(this.workspace, l.analysis, l.path, o, declaration),
      );
    });
    c.onDocumentHighlight((p) => this.#at(p, [], (l, o) => highlights(l.analysis, l.path, o)));
    c.onPrepareRename((p) =>
      this.#at(p, syntaxOnlyRefusal, (l, o) => prepareRename(l.analysis, l.path, o))
    );
    c.onRenameRequest((p) => {
      const newName = string(p, "newName");
      if (newName instanceof ResponseError) return newName;
      return this.#at(
        p,
        syntaxOnlyRefusal,
        (l, o) => rename(this.workspace, l.analysis, l.path, o, newName),
      );
    });
    c.onCompletion((p) => this.#at(p, [], (l, o) => completion(l.analysis, l.path, o)));
    c.onSignatureHelp((p) => this.#at(p, null, (l, o) => signatureHelp(l.analysis, l.path, o)));
    c.languages.inlayHint.on((p) => {
      const lines = range(p);
      if (lines instanceof ResponseError) return lines;
      const located = this.#locate(p);
      if (located instanceof ResponseError) return located;
      return located.kind === "compiled" ? inlayHints(located.analysis, located.path, lines) : [];
    });
    c.onDocumentSymbol((p) => {
      const located = this.#locate(p);
      return located instanceof ResponseError ? located : documentSymbols(located);
    });
    c.onWorkspaceSymbol((p) => {
      if (this.#shutDown) return shutDownError();
      const query = string(p, "query");
      if (query instanceof ResponseError) return query;
      const analysis = this.workspace.analysis();
      return analysis === null ? [] : workspaceSymbols(this.workspace, analysis, query);
    });
    c.languages.semanticTokens.on((p) => {
      const located = this.#locate(p);
      return located instanceof ResponseError ? located : { data: semanticTokens(located) };
    });
    c.onDocumentFormatting((p) => {
      if (this.#shutDown) return shutDownError();
      const uri = documentUri(p);
      if (uri instanceof ResponseError) return uri;
      const document = this.workspace.document(uri);
      if (document !== undefined) return formatDocument(document.getText());
      // A closed file of the compilation: as the compilation read it from disk.
      const located = this.#locate(p);
      if (located instanceof ResponseError) return located;
      const map = textMapOf(located);
      return formatDocument(map.text({ start: 0, end: map.bytes.length }));
    });
    c.onCodeAction((p) => {
      const lines = range(p);
      if (lines instanceof ResponseError) return lines;
      const located = this.#locate(p);
      if (located instanceof ResponseError) return located;
      return codeActions(this.workspace, located, lines, this.#resolveCodeActions);
    });
    c.onCodeActionResolve((action): CodeAction | ResponseError => {
      if (this.#shutDown) return shutDownError();
      const title = string(action, "title");
      if (title instanceof ResponseError) return title;
      const data = action.data as FixData | undefined;
      if (data === undefined || action.edit !== undefined) return action;
      const analysis = this.workspace.analysis();
      if (analysis === null) return action;
      const edit = resolveFix(this.workspace, analysis, data);
      if (edit instanceof ResponseError) return edit;
      return { ...action, edit };
    });
  }

  /** The document a request's params name, by its `textDocument.uri`. */
  #locate(params: unknown): Located | ResponseError {
    if (this.#shutDown) return shutDownError();
    const uri = documentUri(params);
    if (uri instanceof ResponseError) return uri;
    return this.workspace.locate(uri) ?? notOpen(uri);
  }

  /**
   * Answers a request at a position of a document: `compute` on the
   * compilation, `syntaxOnly` for a buffer outside it (answered from its
   * syntax alone, which has no names to resolve).
   */
  #at<T>(
    params: unknown,
    syntaxOnly: T | ResponseError,
    compute: (located: Compiled, offset: number) => T | ResponseError,
  ): T | ResponseError {
    const located = this.#locate(params);
    if (located instanceof ResponseError) return located;
    const at = position(params);
    if (at instanceof ResponseError) return at;
    const offset = textMapOf(located).offset(at);
    if (offset instanceof OutOfRange) {
      const uri = located.kind === "compiled" ? this.workspace.uriOf(located.path) : located.uri;
      return new ResponseError(ErrorCodes.InvalidParams, `${offset.message} (${uri})`);
    }
    if (located.kind === "syntax") return syntaxOnly;
    return compute(located, offset);
  }

  #schedule(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#publish();
    }, DEBOUNCE_MS);
  }

  #publish(): void {
    const workspace = this.workspace;
    const analysis: Analysis | null = workspace.analysis();
    const byUri = analysis === null ? new Map() : compilationDiagnostics(workspace, analysis);
    for (const document of workspace.openDocuments()) {
      if (byUri.has(document.uri)) continue;
      const located = workspace.locate(document.uri);
      if (located?.kind === "syntax") byUri.set(document.uri, syntaxDiagnostics(located));
    }
    for (const uri of this.#published) if (!byUri.has(uri)) byUri.set(uri, []);
    const published = new Set<string>();
    for (const [uri, diagnostics] of byUri) {
      const version = workspace.document(uri)?.version;
      // An open document always hears its state; another file only when it has, or had, some.
      if (diagnostics.length === 0 && version === undefined && !this.#published.has(uri)) continue;
      this.#connection.sendDiagnostics({ uri, version, diagnostics });
      if (diagnostics.length > 0) published.add(uri);
    }
    this.#published = published;
  }
}

const syntaxOnlyRefusal = new ResponseError(
  LSPErrorCodes.RequestFailed,
  "the file is not part of the root's compilation: it is answered from its syntax alone, and a rename needs its names",
);

function shutDownError(): ResponseError {
  return new ResponseError(
    ErrorCodes.InvalidRequest,
    "the server is shut down: only `exit` is accepted",
  );
}

function notOpen(uri: string): ResponseError {
  return new ResponseError(
    ErrorCodes.InvalidParams,
    `${uri} is neither open nor a file of the root's compilation`,
  );
}

/**
 * The answer to a request cancelled while it waits behind another: the
 * protocol's RequestCancelled, at once. Without it the library keeps the
 * request queued and answers it in full: work the editor said it no longer
 * wants (a completion for text typed over, a hover the mouse has left).
 */
function cancelledInQueue(message: Message): ResponseMessage | undefined {
  if (!Message.isRequest(message)) return undefined;
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: { code: LSPErrorCodes.RequestCancelled, message: "cancelled before it was answered" },
  };
}

/** Serves the protocol on stdin and stdout until `exit`, or until stdin closes. */
export function serveLanguageServer(): Promise<number> {
  const reader = new Reader(process.stdin.pipe(new Frames()));
  const writer = new StreamMessageWriter(process.stdout);
  const connection = createConnection(reader, writer, {
    connectionStrategy: { cancelUndispatched: cancelledInQueue },
  });
  let shutDown = false;
  connection.onShutdown(() => {
    shutDown = true;
  });
  const server = new Server(connection);
  server.listen();
  reader.onClose(() => process.exit(shutDown ? 0 : 1));
  connection.listen();
  return new Promise(() => {});
}
