//! What a participant writes stays text on every page, in Chromium: a bot whose hello name,
//! stderr, wrongly shaped action (which the fault message and the checklist quote) hold markup
//! that would run a script if a page wrote it as HTML, and words of 20,000 characters that
//! would push a page sideways. Its owner opens its bot's page (the build log and checklist
//! unfolded), its match's page with the replay framed, and the replay alone at the fault: no
//! element comes from the text, no script runs, nothing is fetched but from the server, and no
//! page scrolls sideways.

use super::harness::{BUILTINS, Server, block_on, config, databases, wait_for};
use crate::browser::Browser;
use crate::util::temp_dir;
use serde_json::json;
use std::time::Duration;

/// The markup.
const HOSTILE: &str = "</script><img src=x onerror=alert(1)><!--";

/// A Vabanque bot that says `HOSTILE` as its name and on its stderr at every request, with a
/// word of 20,000 letters; its first action of each ladder match (or of every match, with
/// `always`) is wrongly shaped, holding both.
fn bot(always: bool) -> String {
    format!(
        r#"import json, sys
HOSTILE = {HOSTILE:?}
LONG = "W" * 20000
ALWAYS = {always}
match_id = ""
faulted = False
for line in sys.stdin:
    if not line.strip():
        continue
    m = json.loads(line)
    t = m.get("type")
    if t == "hello":
        print(json.dumps({{"type": "hello", "name": HOSTILE, "protocol": 1}}), flush=True)
    elif t == "match_start":
        match_id = m.get("match_id", "")
        faulted = False
    elif t == "request":
        sys.stderr.write(HOSTILE + " " + LONG + " & <b>bold</b>\n")
        sys.stderr.flush()
        if ALWAYS or (match_id.startswith("job-") and not faulted):
            faulted = True
            action = {{"table": HOSTILE + LONG}}
        else:
            action = m["legal"][0]
        print(json.dumps({{"type": "action", "id": m["id"], "action": action}}), flush=True)
    elif t == "goodbye":
        break
"#,
        always = if always { "True" } else { "False" }
    )
}

/// No element made from the text, no script run, nothing fetched elsewhere, no sideways
/// scroll: in the page and in the frame it holds, if any.
fn assert_text_only(browser: &mut Browser, url: &str, what: &str) {
    for document in [
        "document",
        "(document.querySelector('iframe') || {}).contentDocument",
    ] {
        let images = browser.eval(&format!(
            "(() => {{ const d = {document}; return d ? d.querySelectorAll('img').length : 0; }})()"
        ));
        assert_eq!(images, json!(0), "{what}: {document}");
    }
    assert_eq!(
        browser.eval("document.documentElement.scrollWidth <= window.innerWidth"),
        json!(true),
        "{what} scrolls sideways"
    );
    assert_eq!(browser.errors(), Vec::<String>::new(), "{what}");
    for request in browser.requests() {
        assert!(
            request.starts_with(url) || request.starts_with("data:"),
            "{what}: {request}"
        );
    }
}

#[test]
fn a_participants_markup_and_long_words_stay_text_on_every_page() {
    let Some(mut browser) = Browser::launch("ladder hostile", &[]) else {
        return;
    };
    let db = databases("ladder hostile")
        .into_iter()
        .next()
        .expect("SQLite");
    let dir = temp_dir("ladder-hostile");
    let file_path = config(&dir, "", &BUILTINS[..2]);
    let server = Server::start(&file_path, &dir.join("home"), db.url.as_deref(), 1);
    let admin = server.client(Some(server.admin_token().trim()));
    let mallory = block_on(admin.add_account("mallory", "owner"))
        .unwrap()
        .token;
    let owner = server.client(Some(&mallory));
    for (name, always) in [("mal-check", true), ("mal-play", false)] {
        block_on(owner.submit(name, "python", bot(always).into_bytes())).unwrap();
    }
    let checked = wait_for("mal-check's check", Duration::from_secs(180), || {
        let v = block_on(owner.version("mal-check", 1)).ok()?;
        (v.state != "building").then_some(v)
    });
    assert_eq!(checked.state, "check-failed", "{checked:?}");
    assert!(checked.check.unwrap().to_string().contains("<img"));
    let id = wait_for(
        "a match of mal-play with its fault",
        Duration::from_secs(300),
        || {
            let played = block_on(owner.matches_of("mal-play", 20)).ok()?;
            played
                .into_iter()
                .find(|m| m.seats.iter().any(|s| s.faults > 0))
                .map(|m| m.id)
        },
    );

    wait_for(
        "the match's deal played out",
        Duration::from_secs(300),
        || {
            let seen = block_on(owner.match_log(id)).ok()?;
            (!seen.withheld).then_some(())
        },
    );
    browser.open_url(&format!("{}/signin", server.url));
    browser.type_into("#token", &mallory);
    browser.click_and_load("form.sign-in button");
    for bot in ["mal-check", "mal-play"] {
        browser.open_url(&format!("{}/bots/{bot}", server.url));
        browser.eval("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
        assert_text_only(&mut browser, &server.url, &format!("/bots/{bot}"));
        // Its checklist (mal-check's) or its fault (mal-play's) quotes the markup, as text.
        assert!(browser.text("main").contains(HOSTILE), "/bots/{bot}");
    }
    // The fault's message is there, as text.
    assert!(browser.text("table.faults").contains(HOSTILE));
    browser.open_url(&format!("{}/matches/{id}", server.url));
    browser.wait_until(
        "(() => { const d = document.querySelector('iframe.replay').contentDocument; \
           return d && d.querySelector('#perspective button'); })()",
    );
    assert_text_only(&mut browser, &server.url, "the match's page");
    browser.open_url(&format!("{}/replays/{id}", server.url));
    // The player starts once the page's log is decoded, after the load.
    browser.wait_until("document.querySelector('#seats tr') !== null");
    browser.press("End");
    assert!(browser.text("#seats").contains(HOSTILE));
    assert_text_only(&mut browser, &server.url, "the replay");

    // A class list whose contact and group hold the markup: text on the admin's page (the
    // accounts handed out, the owners' table) and on the board.
    browser.open_url(&format!("{}/", server.url));
    browser.click_and_load("nav.account button");
    browser.open_url(&format!("{}/signin", server.url));
    browser.type_into("#token", server.admin_token().trim());
    browser.click_and_load("form.sign-in button");
    browser.open_url(&format!("{}/admin", server.url));
    let list = format!("eve,\"{HOSTILE}\",\"{HOSTILE}\"\n");
    browser.type_into("#csv", &list);
    browser.click_and_load("#class form.submit button");
    assert_eq!(
        browser.count("#handed tbody tr"),
        1,
        "{}",
        browser.text("main")
    );
    assert_eq!(browser.texts("#handed td.name")[1..], [HOSTILE, HOSTILE]);
    assert_text_only(&mut browser, &server.url, "the admin's page, handed out");
    browser.open_url(&format!("{}/admin", server.url));
    assert!(browser.text("#owners").contains(HOSTILE));
    assert_text_only(&mut browser, &server.url, "the admin's page");
    browser.open_url(&format!("{}/", server.url));
    assert_text_only(&mut browser, &server.url, "the board");
    server.stop();
}
