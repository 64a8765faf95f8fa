/**
 * `file` arguments that name anything but a file of the root's compilation
 * are refused unopened: /etc/passwd, ../x.nz, an absolute path outside the
 * source root, a symlink inside the root pointing out of it, a path with a
 * NUL byte, and a FIFO inside the root that the compilation did not load
 * (opening a FIFO blocks until a writer comes, so a server that opened it
 * would never answer). An over-long path is a protocol error.
 */
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { connectClient, REPO } from "../support/server.ts";
import { join } from "node:path";

function copyTree(from: string, to: string) {
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    if (entry.isDirectory) {
      copyTree(join(from, entry.name), join(to, entry.name));
    } else if (entry.isFile) {
      Deno.copyFileSync(join(from, entry.name), join(to, entry.name));
    }
  }
}

Deno.test("file arguments outside the compilation are refused unopened", async () => {
  const base = Deno.realPathSync(
    Deno.makeTempDirSync({ prefix: "nazm-files-" }),
  );
  const root = join(base, "project");
  copyTree(join(REPO, "examples", "shapes"), root);
  Deno.mkdirSync(join(base, "outside"));
  const outsideFile = join(base, "outside", "x.nz");
  Deno.writeTextFileSync(outsideFile, "pub fn x() -> Int { 1 }\n");
  Deno.symlinkSync(outsideFile, join(root, "link.nz"));
  const fifo = await new Deno.Command("mkfifo", {
    args: [join(root, "fifo.nz")],
  }).output();
  assert(fifo.success, "mkfifo");
  const { client, close } = await connectClient("modern", [
    "--root",
    join(root, "main.nz"),
  ]);
  try {
    const refusedFiles = [
      "/etc/passwd",
      "../x.nz",
      "../outside/x.nz",
      outsideFile,
      "link.nz",
      join(root, "link.nz"),
      "fifo.nz",
      join(root, "fifo.nz"),
      "main.nz\u0000.txt",
      "./../project/fifo.nz",
      "geometry/../../outside/x.nz",
    ];
    for (const file of refusedFiles) {
      const result = await client.callTool({
        name: "nazm.semantic_context",
        arguments: { file, position: { line: 1, column: 1 } },
      });
      assertEquals(result.isError, true, file);
      assertValidAgainst("nazm.context-4.json", result.structuredContent);
      const refusal = result.structuredContent as {
        status: string;
        reason: string;
      };
      assertEquals(
        refusal.reason,
        "file_not_in_compilation",
        `${file}: ${JSON.stringify(refusal)}`,
      );
    }
    // The compilation's own files are answered, relative or absolute.
    for (const file of ["main.nz", join(root, "main.nz")]) {
      const result = await client.callTool({
        name: "nazm.semantic_context",
        arguments: { file, position: { line: 5, column: 4 } },
      });
      assertEquals(result.isError, undefined, file);
      assertValidAgainst("nazm.context-4.json", result.structuredContent);
    }
    await assertRejects(() =>
      client.callTool({
        name: "nazm.semantic_context",
        arguments: {
          file: "a/".repeat(5000) + "x.nz",
          position: { line: 1, column: 1 },
        },
      })
    );
  } finally {
    await close();
    Deno.removeSync(base, { recursive: true });
  }
});
