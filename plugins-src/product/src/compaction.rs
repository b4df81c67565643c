//! The compaction prompt: the system prompt of the request in which the
//! model summarises the older part of a conversation, so that the summary
//! can replace it in Smith's context. The host sends the conversation as
//! the request's one user message: the summary in force in
//! <previous-summary>, the transcript in <conversation> (thinking left out,
//! long tool results shortened) and the user's own <instructions>.

use crate::text::{cat, utoa};
use smith_plugin::prompt::{PromptFault, RuntimeFacts};

/// render renders the compaction prompt for facts, refusing one longer
/// than limit bytes.
pub(crate) fn render(facts: &RuntimeFacts, limit: usize) -> Result<String, PromptFault> {
    if facts.working_directory.is_empty() {
        return Err(PromptFault::InvalidFacts(
            "working-directory is empty; pass the absolute directory the tools work in".to_string(),
        ));
    }
    let mut s = String::with_capacity(2048);
    s.push_str("You summarise part of a coding session between a user and Smith, a coding agent working in ");
    s.push_str(&facts.working_directory);
    s.push_str(". The user message holds the transcript in <conversation> (long tool results are shortened), the summary of what came before it in <previous-summary> when there is one, and the user's <instructions> for this summary when they gave any: follow those first.\n\n");
    s.push_str("Your summary replaces all of it in Smith's context: Smith goes on with the work from the summary and the recent messages after it, and sees nothing else of the transcript. Fold the previous summary in.\n\n");
    s.push_str("Write these sections, as Markdown headings, leaving out one that would be empty:\n");
    for (head, what) in SECTIONS {
        s.push_str("- ");
        s.push_str(head);
        s.push_str(": ");
        s.push_str(what);
        s.push('\n');
    }
    s.push_str("\nBe complete but brief: keep file paths, identifiers, commands, numbers and error messages exact; drop small talk, repetition and tool output that no longer matters. Never add what the transcript does not say. Reply with the summary only, without a preamble or closing remarks.\n");
    if s.len() > limit {
        return Err(PromptFault::Unknown(cat(&[
            "product: the compaction prompt is ",
            &utoa(s.len() as u64),
            " bytes, over the host's ",
            &utoa(limit as u64),
            "-byte limit",
        ])));
    }
    Ok(s)
}

/// SECTIONS are the summary's sections, in order, with what each holds.
const SECTIONS: [(&str, &str); 5] = [
    ("Goal", "what the user asked for, their constraints and preferences, in their words where wording matters"),
    ("Done", "what was changed (files, functions, commands run) and what was decided, with the reasons"),
    ("State", "what works and what fails now, with the exact errors and failing tests"),
    ("Files", "the paths read or changed and what matters in each (names, line numbers; code only when it is needed)"),
    ("Next", "what remains to do, the next step, and open questions"),
];
