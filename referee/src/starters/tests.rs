//! The starters are their samples, each one asked for is found, and nothing is overwritten.

use super::files::SAMPLES;
use super::language::Convention;
use super::*;
use engine::GameKind;
use std::path::Path;

#[test]
fn each_starter_is_its_sample_and_its_readme_builds_checks_and_plays_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for starter in starters() {
        for file in &starter.files {
            let sample = std::fs::read_to_string(root.join(file.sample)).unwrap();
            assert_eq!(file.text, sample, "{}", file.sample);
        }
        let game = starter.game.name();
        let readme = starter.readme("/bin/referee");
        let mut expected = Vec::from_iter(starter.build.map(str::to_string));
        expected.push(format!(
            "/bin/referee check --game {game} {}",
            starter.command
        ));
        let played = format!(
            "/bin/referee match --game {game} --bot \"me={}\" --bot ",
            starter.command
        );
        let commands = starter.commands("/bin/referee");
        assert_eq!(commands[..commands.len() - 1], expected);
        assert!(commands[commands.len() - 1].starts_with(&played));
        let block = format!("\n```sh\n{}\n```\n", commands.join("\n"));
        assert!(readme.ends_with(&block), "{readme}");
        assert_eq!(readme.matches("```").count(), 2, "one block: {readme}");
    }
}

#[test]
fn starter_is_the_one_asked_for_or_names_the_languages_there_are() {
    let all = starters();
    for &game in GameKind::ALL {
        let of_game: Vec<&str> = all
            .iter()
            .filter(|s| s.game == game)
            .map(|s| s.language.name())
            .collect();
        for language in Language::ALL {
            match starter(game, language) {
                Ok(found) => assert_eq!((found.game, found.language), (game, language)),
                Err(NewBotError::NoStarter { available, .. }) => {
                    assert!(!of_game.contains(&language.name()));
                    assert_eq!(available, of_game.join(", "));
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
}

#[test]
fn every_sample_starter_is_of_a_registered_game_and_a_language() {
    let conventions: Vec<Convention> = Language::ALL
        .into_iter()
        .filter_map(Language::convention)
        .collect();
    for sample in SAMPLES {
        assert!(
            GameKind::from_name(sample.game).is_ok(),
            "{} is named for no registered game",
            sample.sample
        );
        assert!(
            conventions
                .iter()
                .any(|c| c.dir == sample.dir && c.extension == sample.extension),
            "{} is in no language's directory or has not its extension",
            sample.sample
        );
    }
}

#[test]
fn nothing_is_overwritten() {
    let dir = std::env::temp_dir().join(format!("starter-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let python = starter(GameKind::Vabanque, Language::Python).unwrap();
    let written = python.write(&dir, "referee").unwrap();
    assert_eq!(written.len(), 2);
    assert!(matches!(
        python.write(&dir, "referee"),
        Err(NewBotError::Exists(_))
    ));
    assert!(matches!(
        python.write(&written[0], "referee"),
        Err(NewBotError::NotADirectory(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_language_is_found_by_its_name_and_its_recipe_is_its_starters() {
    for language in Language::ALL {
        assert_eq!(Language::from_name(language.name()), Some(language));
        let recipe = language.recipe();
        assert!(
            recipe.main.ends_with(recipe.extension) || language == Language::Rust,
            "{recipe:?}"
        );
        for starter in starters().iter().filter(|s| s.language == language) {
            assert_eq!(starter.build, recipe.build);
        }
    }
    assert_eq!(Language::from_name("cobol"), None);
}
