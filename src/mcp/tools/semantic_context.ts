/**
 * nazm.semantic_context: the semantic context packet of a definition
 * (docs/architecture.md §7.29).
 *
 * @module
 */
import { ContextInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.semantic_context",
  title: "Semantic context of a definition",
  description:
    "Returns the compiler's context packet (nazm.context/4) for the function, record or enum used at a position of the root's compilation, or whose declaration (doc comment, signature or body) holds it: its key, kind, signature, doc comment and exact source, and compact links (key, kind, name, place) to the definitions it uses without calling, the records and enums it names as types, what uses it, what it calls and what calls it, plus ids of the diagnostics inside it. Call it before editing or explaining a definition; to follow a link, call it again at the link's place; for a diagnostic's text, pass its id to nazm.diagnostic_detail. `file` is a path relative to the source root (or that file's absolute path) of a file the compilation loaded, and `position` is 1-based, column in characters. Prelude items (Option, Result, Int, print…) never appear as links. A position on no definition, a file the compilation did not load, or a compilation with syntax errors gives an unavailable result (isError) with a reason; nothing else on disk is read.",
  input: ContextInput,
  outputSchema: "nazm.context-4.json",
});
