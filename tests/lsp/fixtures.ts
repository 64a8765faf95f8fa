import { type LspSession, startLsp, uriOf, workspace } from "../support/lsp.ts";

/** The program the language server tests edit: two modules, an enum, a record, a doc comment. */
export const PROGRAM: Record<string, string> = {
  "main.nz": `import geo.shapes.{Shape, area}
import geo.shapes as shapes

/// Adds one.
fn bump(n: Int) -> Int {
  n + 1
}

fn main() -> Unit {
  let count = bump(41);
  let s = Shape.Circle(2);
  let p = shapes.origin();
  print(to_string(area(s) + count + p.x));
}
`,
  "geo/shapes.nz": `pub enum Shape {
  Circle(Int),
  Square(Int),
}

pub record Point {
  x: Int,
  y: Int,
}

pub fn origin() -> Point {
  Point { x: 0, y: 0 }
}

pub fn area(s: Shape) -> Int {
  match s {
    Shape.Circle(r) => 3 * r * r,
    Shape.Square(a) => a * a,
  }
}
`,
};

/** `bump(41)` in PROGRAM's main.nz. */
export const BUMP = { line: 9, character: 15 };

/** `nazm lsp` on PROGRAM, with main.nz open. */
export async function started(): Promise<{ dir: string; session: LspSession; uri: string }> {
  const dir = workspace(PROGRAM);
  const session = await startLsp(dir);
  const uri = uriOf(dir, "main.nz");
  await session.connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nazm", version: 1, text: PROGRAM["main.nz"] },
  });
  return { dir, session, uri };
}

/** A request's error, or "answered". */
export function failure(
  p: Promise<unknown>,
): Promise<{ code: number; message: string } | "answered"> {
  return p.then(() => "answered" as const, (e: { code: number; message: string }) => e);
}
