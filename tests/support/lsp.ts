/**
 * Spawning the real `nazm lsp` for tests, with exactly the flags of
 * deno.json's `lsp` task, and talking to it through vscode-jsonrpc's own
 * client connection over its stdio.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import {
  createMessageConnection,
  type DataCallback,
  type Disposable,
  type LogMessageParams,
  type Message,
  type MessageConnection,
  type PublishDiagnosticsParams,
  type RegistrationParams,
  type ResponseMessage,
  type ShowMessageParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { childEnv, LOCK_FLAGS, REPO } from "./server.ts";

/**
 * The language server's flags: exactly deno.json's `lsp` task — its
 * permissions, and how far V8 lets its heap grow past what a collection
 * kept (bench/README.md, lsp).
 */
export const LSP_FLAGS = [
  "--allow-read",
  "--allow-env=XDG_RUNTIME_DIR",
  "--v8-flags=--heap-growing-percent=20,--max-semi-space-size=4",
] as const;

export interface LspSession {
  readonly connection: MessageConnection;
  readonly child: ChildProcess;
  /** Every publishDiagnostics, in order. */
  readonly published: PublishDiagnosticsParams[];
  /** Every window/showMessage, in order. */
  readonly shown: ShowMessageParams[];
  /** Every client/registerCapability, in order. */
  readonly registered: RegistrationParams[];
  /** Every window/logMessage, in order. */
  readonly logged: LogMessageParams[];
  /**
   * Sends a request exactly as given (params included: vscode-jsonrpc's
   * client would wrap a `null` in an array) and resolves with its response.
   */
  raw(method: string, params: unknown): Promise<ResponseMessage>;
  /** Sends a notification exactly as given. */
  rawNotification(method: string, params: unknown): void;
  /** Resolves with the first diagnostics for `uri` (after `since` published) that satisfy `test`. */
  diagnostics(
    uri: string,
    test?: (p: PublishDiagnosticsParams) => boolean,
    since?: number,
  ): Promise<PublishDiagnosticsParams>;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  stderr(): string;
  /** Shutdown and exit, if still running. */
  close(): Promise<void>;
}

/** A reader that hands the responses to {@link LspSession.raw}'s requests to their waiters. */
class TappedReader extends StreamMessageReader {
  readonly waiting = new Map<string, (response: ResponseMessage) => void>();

  override listen(callback: DataCallback): Disposable {
    return super.listen((message: Message) => {
      const id = (message as { id?: unknown }).id;
      const waiter = typeof id === "string" ? this.waiting.get(id) : undefined;
      if (waiter === undefined) return callback(message);
      this.waiting.delete(id as string);
      waiter(message as ResponseMessage);
    });
  }
}

/** Starts `nazm lsp`, initializes it on `folder`, and sends `initialized`. */
export async function startLsp(
  folder: string,
  options: {
    initializationOptions?: unknown;
    capabilities?: Record<string, unknown>;
    processId?: number | null;
  } = {},
): Promise<LspSession> {
  const child = spawn(
    Deno.execPath(),
    ["run", ...LOCK_FLAGS, ...LSP_FLAGS, join(REPO, "src", "cli", "main.ts"), "lsp"],
    { stdio: ["pipe", "pipe", "pipe"], env: childEnv() },
  );
  let errText = "";
  child.stderr!.on("data", (chunk) => errText += String(chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const reader = new TappedReader(child.stdout!);
  const connection = createMessageConnection(reader, new StreamMessageWriter(child.stdin!));
  const frame = (message: Record<string, unknown>) => {
    const body = new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...message }));
    child.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin!.write(body);
  };
  let rawId = 0;
  const published: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (const w of waiters.splice(0)) w();
  });
  const shown: ShowMessageParams[] = [];
  connection.onNotification("window/showMessage", (p: ShowMessageParams) => {
    shown.push(p);
  });
  const logged: LogMessageParams[] = [];
  connection.onNotification("window/logMessage", (p: LogMessageParams) => {
    logged.push(p);
  });
  const registered: RegistrationParams[] = [];
  connection.onRequest("client/registerCapability", (p: RegistrationParams) => {
    registered.push(p);
    return null;
  });
  connection.onRequest("workspace/configuration", () => []);
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: options.processId ?? null,
    rootUri: new URL(`file://${folder}`).href,
    capabilities: options.capabilities ?? {
      textDocument: { codeAction: { resolveSupport: { properties: ["edit"] } } },
    },
    initializationOptions: options.initializationOptions,
  });
  await connection.sendNotification("initialized", {});
  let closed = false;
  return {
    connection,
    child,
    published,
    shown,
    registered,
    logged,
    raw(method, params) {
      const id = `raw-${++rawId}`;
      const answered = new Promise<ResponseMessage>((resolve) => reader.waiting.set(id, resolve));
      frame({ id, method, params });
      return answered;
    },
    rawNotification(method, params) {
      frame({ method, params });
    },
    diagnostics(uri, test = () => true, since = 0) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no diagnostics for ${uri}; stderr: ${errText}`)),
          20_000,
        );
        const look = () => {
          const found = published.slice(since).find((p) => p.uri === uri && test(p));
          if (found !== undefined) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(look);
        };
        look();
      });
    },
    exited,
    stderr: () => errText,
    async close() {
      if (closed) return;
      closed = true;
      if (child.exitCode === null) {
        try {
          await connection.sendRequest("shutdown");
          await connection.sendNotification("exit");
        } catch {
          // Already gone: the exit code below says how.
        }
      }
      await exited;
      connection.dispose();
    },
  };
}

/** A temporary workspace with these files (paths relative to it). */
export function workspace(files: Record<string, string>): string {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-lsp-" }));
  for (const [path, text] of Object.entries(files)) {
    const abs = join(dir, path);
    Deno.mkdirSync(join(abs, ".."), { recursive: true });
    Deno.writeTextFileSync(abs, text);
  }
  return dir;
}

export function uriOf(dir: string, path: string): string {
  return new URL(`file://${join(dir, path)}`).href;
}

/** A semantic token, decoded from the protocol's five relative numbers. */
export interface DecodedToken {
  readonly line: number;
  readonly character: number;
  readonly length: number;
  readonly type: number;
  readonly modifiers: number;
}

/** The tokens of a `semanticTokens/full` answer, with absolute positions. */
export function decodeTokens(data: readonly number[]): DecodedToken[] {
  const out: DecodedToken[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
    out.push({ line, character, length: data[i + 2], type: data[i + 3], modifiers: data[i + 4] });
  }
  return out;
}
