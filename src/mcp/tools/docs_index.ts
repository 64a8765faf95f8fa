/**
 * nazm.docs_index: Nazm's documentation by section, without text
 * (docs/architecture.md §7.34).
 *
 * @module
 */
import { DocsIndexInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.docs_index",
  title: "Nazm documentation index",
  description:
    "Lists Nazm's own documentation — the language card (`language-card`: the whole language in one section, read it first), the language specification and grammar, the static semantics, the architecture and tool contracts, the diagnostics table, the capability matrix, the roadmap and the goals — as documents with their authority and sections with stable ids, titles, parents, levels, byte sizes and digests, but no text, plus the corpus state. Call it before nazm.docs_section, which takes one of these exact ids and this state; pass `document` (an id such as `specification`) to list one document only — `document: \"language-card\"` gives the state for the card in a small answer, where the whole index is large. Weigh a section by its document's authority: normative is a rule of the language, descriptive explains the implementation, status says what exists now, planning is intent and never a rule, aspiration is a goal and never evidence that something exists. The corpus is the repository's fixed list of documents, not the root program's project, and there is no search: ids are exact.",
  input: DocsIndexInput,
  outputSchema: "nazm.docs-index-1.json",
});
