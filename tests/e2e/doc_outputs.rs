//! What the docs show a command print is what it prints, for the commands that read no file,
//! start no bot and draw no seed (`referee games`): every `console` block of the README and of
//! `docs/` that runs one shows its output exactly.

use crate::util::*;

/// The commands whose output the docs must show as it is, by their arguments.
const FIXED: &[&[&str]] = &[&["games"], &["stand-in", "--help"]];

/// Each `console` block of `text`: its first line (the command, after `$ `) and the lines
/// after it up to the next `$ ` or the end of the block (the output).
fn console_blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut blocks = Vec::new();
    for block in text.split("```console\n").skip(1) {
        let body = block.split_once("\n```").map_or(block, |(body, _)| body);
        let mut lines = body.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ ") else {
                continue;
            };
            let mut output = Vec::new();
            while let Some(next) = lines.peek() {
                if next.starts_with("$ ") {
                    break;
                }
                output.push(lines.next().unwrap().to_string());
            }
            blocks.push((command.to_string(), output));
        }
    }
    blocks
}

#[test]
fn the_output_the_docs_show_for_a_fixed_command_is_its_output() {
    let mut docs = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path);
        }
    }
    let mut checked = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        for (command, shown) in console_blocks(&text) {
            let words: Vec<&str> = command.split_whitespace().collect();
            let Some((program, args)) = words.split_first() else {
                continue;
            };
            if !program.ends_with("referee") || !FIXED.contains(&args) {
                continue;
            }
            let out = referee().args(args).output().unwrap();
            assert!(out.status.success(), "{command}: {}", stderr(&out));
            let printed: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
            assert_eq!(
                shown,
                printed,
                "{} shows `{command}` printing something else than it does",
                doc.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no doc shows a fixed command's output");
}
