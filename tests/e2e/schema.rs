//! The checked-in JSON Schemas are the ones generated from the protocol types.

use crate::util::*;

#[test]
fn checked_in_schemas_equal_the_generated_ones() {
    let dir = root().join("docs/schema");
    for file in referee::schema::all() {
        let path = dir.join(&file.name);
        let checked_in = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!(
                "{} is missing: run `referee schema --out docs/schema`",
                path.display()
            )
        });
        assert!(
            checked_in == file.text,
            "{} is stale: run `referee schema --out docs/schema`",
            path.display()
        );
    }
}

#[test]
fn the_schema_command_writes_the_same_files() {
    let dir = temp_dir("schema");
    let out = run(&["schema", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    for file in referee::schema::all() {
        assert_eq!(
            std::fs::read_to_string(dir.join(&file.name)).unwrap(),
            file.text
        );
    }
}
