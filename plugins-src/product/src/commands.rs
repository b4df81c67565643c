//! The commands. Each gets its arguments as {"arguments": "text"} and
//! answers with text for the user and, in its details, the prompt the
//! frontend submits on the user's behalf ({"prompt": "..."}, see the WIT's
//! command-definition).

use crate::text::cat;
use smith_json::read::{Decoder, Kind};
use smith_json::write::Writer;
use smith_plugin::tool::{ToolFault, ToolOutput};
use smith_plugin::types::ContentBlock;

/// Command is one command's declaration and implementation: run gets the
/// text the user typed after the command's name and returns the text shown
/// to the user and the prompt to submit.
pub(crate) struct Command {
    pub name: &'static str,
    pub description: &'static str,
    pub argument_hint: Option<&'static str>,
    pub run: fn(&str) -> (String, String),
}

/// COMMANDS lists the commands in declaration order.
pub(crate) static COMMANDS: [Command; 1] = [Command {
    name: "init",
    description: "Study the project and write or update its AGENTS.md: build and test commands, layout, conventions.",
    argument_hint: Some("[what to focus on]"),
    run: init,
}];

/// run runs the command name with the arguments object args.
pub(crate) fn run(name: &str, args: &[u8]) -> Result<ToolOutput, ToolFault> {
    let c = match COMMANDS.iter().find(|c| c.name == name) {
        Some(c) => c,
        None => return Err(ToolFault::UnknownTool(name.to_string())),
    };
    let text = match arguments(args) {
        Ok(t) => t,
        Err(e) => {
            return Err(ToolFault::InvalidArguments(cat(&[
                name,
                ": ",
                &e,
                "; the host sends a command's arguments as {\"arguments\": \"text\"}",
            ])))
        }
    };
    let (shown, prompt) = (c.run)(text.trim());
    Ok(ToolOutput { content: vec![ContentBlock::Text(shown)], details: Some(prompt_details(&prompt)) })
}

/// arguments returns the string member "arguments" of the JSON object
/// args, "" when it is absent or null; of repeated members the last
/// counts, as when encoding/json decodes the object into a map. Other
/// members may hold any JSON value. The error says why args is not such
/// an object: a syntax error anywhere first.
pub(crate) fn arguments(args: &[u8]) -> Result<String, String> {
    let mut d = Decoder::new(args);
    let mut text = Ok(String::new());
    match d.peek() {
        Kind::Object => d.object(|d, key| {
            if key == b"arguments" {
                text = match d.peek() {
                    Kind::Str | Kind::Null => Ok(d.str().string()),
                    got => Err(cat(&["\"arguments\" must be a string, not ", got.name()])),
                };
            }
        }),
        // Invalid: skip records the syntax error, which the finish reports.
        got => {
            d.skip();
            text = Err(cat(&["the arguments must be a JSON object, not ", got.name()]));
        }
    }
    if let Err(e) = d.finish() {
        return Err(e.message().to_string());
    }
    text
}

/// prompt_details returns the details object {"prompt": text}.
pub(crate) fn prompt_details(text: &str) -> String {
    let mut w = Writer::new();
    w.begin_object();
    w.key("prompt");
    w.string(text);
    w.end_object();
    // The writer escapes every byte that is not valid UTF-8.
    String::from_utf8(w.into_bytes()).unwrap_or_default()
}

/// INIT_PROMPT is what init asks of the agent.
pub(crate) const INIT_PROMPT: &str = "Study this project and write AGENTS.md at its root (the repository root, or the working directory outside a repository): the instructions a coding agent needs to work here. First look at the README, the build and CI files, and a sample of the code and tests. Keep it short (under about 60 lines) and specific to this project:
- the exact commands to build, run all tests, run a single test, lint and format;
- the layout: the main directories and what lives in each;
- the conventions: code style, naming, error handling, testing, commit messages;
- anything surprising that a newcomer would get wrong.
If AGENTS.md exists, improve it: keep what is still true, fix what is not, add what is missing. Fold in the useful parts of any CLAUDE.md, .cursorrules or .github/copilot-instructions.md. List only commands you found in the project, and run the quick ones to check them.";

/// init asks the agent to write or update AGENTS.md, with the user's focus
/// when given.
fn init(focus: &str) -> (String, String) {
    let mut prompt = INIT_PROMPT.to_string();
    if !focus.is_empty() {
        prompt.push_str("\n\nThe user adds: ");
        prompt.push_str(focus);
    }
    ("Asking the agent to study the project and write AGENTS.md.".to_string(), prompt)
}
