/**
 * A context packet (`nazm.context/4`) rendered for the golden files
 * (tests/golden/README.md): its header, the target's exact source with its
 * name marked, then each relation's links by kind, key and place, and its
 * diagnostics. Every place is checked against the files it names, the
 * target's source against its place, each link's name against the text at
 * its place; what is checked is not repeated.
 *
 * @module
 */
import type { ContextPacket } from "../../src/contracts/mod.ts";
import { annotate, type Place, quoted, SourceView } from "./annotated.ts";

function range(place: Place): string {
  const at = (p: Place["start"]) => `${p.line}:${p.column}`;
  return `${place.file}:${at(place.start)}-${at(place.end)}`;
}

/** The rendering of `packet` over the compilation's `files`; throws where the packet contradicts them. */
export function renderContext(
  packet: ContextPacket,
  files: readonly { readonly path: string; readonly bytes: Uint8Array }[],
): string {
  const views = new Map(files.map((f) => [f.path, new SourceView(f.path, f.bytes)]));
  const textAt = (place: Place) => {
    const view = views.get(place.file);
    if (view === undefined) throw new Error(`context: no file ${place.file}`);
    view.checkPlace(place);
    return view.text(place.start.offset, place.end.offset);
  };
  const t = packet.target;
  if (t.key !== `${t.module}::${t.name}`) {
    throw new Error(`context: target ${t.key} is not ${t.module}::${t.name}`);
  }
  if (textAt(t.name_place) !== t.name) {
    throw new Error(`context: the target's name is not at its name_place`);
  }
  if (textAt(t.place) !== t.source) {
    throw new Error(`context: the target's source is not the text at its place`);
  }
  const out = [
    `${packet.schema} ${packet.status}, ${packet.compiler}, root ${packet.root}`,
    `state: source ${packet.state.source}`,
    `unsupported: ${packet.unsupported.join(", ")}`,
    `==== target: ${t.kind} ${t.key}${t.exported ? ", exported" : ""} ====`,
    `signature: ${t.signature}`,
    `doc: ${t.doc === null ? "none" : quoted(t.doc)}`,
    `source: ${range(t.place)}`,
    ...annotate(
      views.get(t.place.file)!,
      [{
        start: t.name_place.start.offset,
        end: t.name_place.end.offset,
        underline: "^",
        text: "name",
      }],
      { from: t.place.start.line, to: t.place.end.line },
    ),
    "==== links ====",
  ];
  for (const section of ["uses", "types", "used_by", "calls", "called_by"] as const) {
    if (packet[section].length === 0) out.push(`${section}: none`);
    for (const link of packet[section]) {
      if (textAt(link.place) !== link.name || !link.key.endsWith(`::${link.name}`)) {
        throw new Error(`context: ${section} ${link.key} does not name ${link.name} at its place`);
      }
      out.push(`${section}: ${link.kind} ${link.key} at ${range(link.place)}`);
    }
  }
  if (packet.diagnostics.length === 0) out.push("diagnostics: none");
  for (const d of packet.diagnostics) {
    textAt(d.place);
    out.push(`diagnostics: ${d.severity} ${d.code} at ${range(d.place)}, id ${d.id}`);
  }
  return out.join("\n") + "\n";
}
