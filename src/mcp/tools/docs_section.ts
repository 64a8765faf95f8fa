/**
 * nazm.docs_section: one documentation section's own text, byte for byte
 * (docs/architecture.md §7.34).
 *
 * @module
 */
import { DocsSectionInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.docs_section",
  title: "Nazm documentation section",
  description:
    "Returns one section of Nazm's documentation: its own canonical text byte for byte (from its heading to its first subsection, never a paraphrase and never its subsections' text), its title, parent and level, where it lies in its file, its digest, and its document's authority — a normative section is a rule of the language, an aspiration section is never evidence of what exists, a planning section is never a rule. Pass an exact section id and the state from the latest nazm.docs_index answer; to read subsections, ask for their ids in turn. The section `language-card` is the whole language on one page, the place to start. An id no section has is refused not_found (the nearest id is never substituted), and a state the documentation no longer has is refused stale_state: call nazm.docs_index again. Ids are never paths; nothing but the corpus's own documents is ever read.",
  input: DocsSectionInput,
  outputSchema: "nazm.docs-section-1.json",
});
