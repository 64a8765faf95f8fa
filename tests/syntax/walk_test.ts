/**
 * `children` is exhaustive over the node kinds: a kind added to the tree
 * and not to `children` is a type error, never a node silently treated as
 * a leaf (whose names a rename would then miss).
 */
import { assert } from "../support/assert.ts";

async function typeCheck(dir: string): Promise<{ ok: boolean; output: string }> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--no-lock", "--no-config", `${dir}/walk.ts`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(result.stderr) + new TextDecoder().decode(result.stdout);
  return { ok: result.success, output };
}

Deno.test("walk: a node kind missing from children() fails type checking", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const ast = await Deno.readTextFile("src/syntax/ast.ts");
    await Deno.writeTextFile(`${dir}/walk.ts`, await Deno.readTextFile("src/syntax/walk.ts"));
    const added = ast.replace(
      "export type Node =\n",
      'export interface NewNode extends NodeBase {\n  readonly kind: "NewNode";\n}\n\nexport type Node =\n  | NewNode\n',
    );
    assert(added !== ast, "the Node union is where the test expects it");
    await Deno.writeTextFile(`${dir}/ast.ts`, added);
    const { ok, output } = await typeCheck(dir);
    assert(!ok, "a new kind must not type check");
    // The one error: the new kind reaches the `never` of children()'s default.
    assert(/NewNode[\s\S]*never/.test(output) && output.includes("walk.ts"), output);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
