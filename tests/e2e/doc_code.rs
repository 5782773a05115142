//! The code the docs show is code the project builds and runs: a fenced block marked
//! `<!-- file: PATH -->` is the whole file PATH, and one marked `<!-- part of: PATH -->` is a run
//! of whole lines of it, verbatim. The bots of writing-a-bot.md's sections 3 to 5 are the
//! starters `referee new-bot` writes and the Rust sample bots, so every code block there must be
//! marked. (No binary is needed.)

use crate::util::*;

/// Asserts that every `file` and `part of` block of `page` is its file, or a part of it.
fn check_page(page: &str) -> usize {
    let mut checked = 0;
    for block in marked_blocks(page) {
        let whole = match block.kind.as_str() {
            "file" => true,
            "part of" => false,
            _ => continue,
        };
        let source = std::fs::read_to_string(root().join(&block.path))
            .unwrap_or_else(|e| panic!("{}:{}: {}: {e}", block.page, block.line, block.path));
        if whole {
            assert!(
                block.text == source,
                "{}:{}: the block is not {} as it is (copy the file into the block)",
                block.page,
                block.line,
                block.path
            );
        } else {
            assert!(
                !block.text.is_empty()
                    && (source.starts_with(&block.text)
                        || source.contains(&format!("\n{}", block.text))),
                "{}:{}: the block is not a run of whole lines of {}",
                block.page,
                block.line,
                block.path
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn code_blocks_marked_as_files_are_those_files() {
    let checked: usize = doc_pages().iter().map(|page| check_page(page)).sum();
    assert!(checked > 0, "no page marks a code block as a file");
}

#[test]
fn the_bots_of_writing_a_bot_sections_3_to_5_are_real_files() {
    let page = "docs/writing-a-bot.md";
    let source = std::fs::read_to_string(root().join(page)).unwrap();
    let start = source
        .find("\n## 3. ")
        .expect("writing-a-bot.md has a section 3");
    let end = source
        .find("\n## 6. ")
        .expect("writing-a-bot.md has a section 6");
    let first_line = source[..start].lines().count();
    let lines: Vec<&str> = source[start..end].lines().collect();
    let mut inside = false;
    let mut code_blocks = 0;
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("```") {
            continue;
        }
        if inside {
            inside = false;
            continue;
        }
        inside = true;
        let language = &line[3..];
        if matches!(language, "python" | "js" | "rust") {
            code_blocks += 1;
            let marker = if i > 0 { lines[i - 1] } else { "" };
            assert!(
                marker.starts_with("<!-- file: ") || marker.starts_with("<!-- part of: "),
                "{page}:{}: a ```{language} block of sections 3 to 5 that is not marked as a \
                 file of the repository",
                first_line + i
            );
        }
    }
    assert!(code_blocks >= 4, "sections 3 to 5 show the starters' code");
    assert!(check_page(page) >= code_blocks);
}
