//! A page builder: a title, trusted markup, styles, scripts and JSON data blocks → one HTML
//! string that opens from disk and fetches nothing.
//!
//! Two rules keep what a page shows from acting on it:
//! - Untrusted data (a log's player names, a bot's stderr) enters only as JSON in a
//!   `<script type="application/json">` block, with `<`, `>` and `&` written as `\u003c`,
//!   `\u003e` and `\u0026`, so that no string can close the tag or open another; the page's
//!   scripts read it with `JSON.parse` and put text on the page through `textContent`.
//! - A Content-Security-Policy `<meta>` tag forbids everything but the page's own scripts and
//!   styles, named by their SHA-256 hashes (computed here, so a script injected by any other
//!   means does not run), and `data:` images: `default-src 'none'` covers `connect-src`, so no
//!   `fetch`, XHR, WebSocket or beacon leaves the page, and no font, frame or image from
//!   anywhere else is loaded.
//! - A page that links the program's own script and style files written beside it (the
//!   report's replay pages share one `viewer.js` and `viewer.css`: [`Page::link_script`]) allows
//!   them as `'self'`. Hashes cannot name them under `file://`: Chromium checks a linked file's
//!   `integrity=` only on a CORS response, which a file is not, and refuses the file. `'self'`
//!   still refuses every inline script, handler and `javascript:` URL the page does not hold
//!   by hash, and everything from the network; under `file://` Chromium counts every local file
//!   as `'self'` (`docs/replay-viewer.md`, security).

use base64::Engine as _;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::io::Write as _;

/// A page being assembled; [`Page::render`] gives its HTML.
#[derive(Clone, Debug, Default)]
pub struct Page {
    title: String,
    body: String,
    styles: Vec<String>,
    scripts: Vec<String>,
    data: Vec<(String, String)>,
    linked_styles: Vec<String>,
    linked_scripts: Vec<String>,
    encoded: Vec<(String, String)>,
}

/// The `type` of a data block written by [`Page::add_compressed_data`]: gzip, then base64.
pub const GZIP_BASE64: &str = "application/gzip+base64";

/// Why a data block could not be added.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The value does not serialize to JSON.
    #[error("data block {id}: {source}")]
    Json {
        /// The block's id.
        id: String,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
}

impl Page {
    /// An empty page titled `title` (plain text: it is escaped).
    pub fn new(title: impl Into<String>) -> Self {
        Page {
            title: title.into(),
            ..Page::default()
        }
    }

    /// Sets the markup of the `<body>`. It is written as it is: trusted markup of the
    /// program's own (a skeleton the scripts fill), never text from a log.
    pub fn set_body(&mut self, html: &str) -> &mut Self {
        self.body = html.to_string();
        self
    }

    /// Adds a style sheet, inlined in a `<style>` element in the order added.
    ///
    /// # Panics
    /// When `css` holds `</style`, which would end the element: the program's own style
    /// sheets never do.
    pub fn add_style(&mut self, css: &str) -> &mut Self {
        self.styles.push(inline_text(css, "style"));
        self
    }

    /// Adds a script, inlined in a `<script>` element at the end of the body, in the order
    /// added (after every data block, which the scripts can therefore read at once).
    ///
    /// # Panics
    /// When `js` holds `</script`, which would end the element: the program's own scripts
    /// never do.
    pub fn add_script(&mut self, js: &str) -> &mut Self {
        self.scripts.push(inline_text(js, "script"));
        self
    }

    /// Adds `value` as a JSON data block with the element id `id`, which a script reads with
    /// `JSON.parse(document.getElementById(id).textContent)`. Any text is safe in it.
    ///
    /// # Errors
    /// [`PageError::Json`] when `value` does not serialize.
    pub fn add_data<T: Serialize + ?Sized>(
        &mut self,
        id: &str,
        value: &T,
    ) -> Result<&mut Self, PageError> {
        let json = json_of(id, value)?;
        self.data.push((id.to_string(), escape_json(&json)));
        Ok(self)
    }

    /// Adds `value` as a data block with the element id `id` and the type [`GZIP_BASE64`]: its
    /// JSON compressed with gzip and written in base64 (no character of which can end the
    /// element), which a script decodes with the browser's `DecompressionStream("gzip")`.
    ///
    /// # Errors
    /// [`PageError::Json`] when `value` does not serialize.
    pub fn add_compressed_data<T: Serialize + ?Sized>(
        &mut self,
        id: &str,
        value: &T,
    ) -> Result<&mut Self, PageError> {
        let json = json_of(id, value)?;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        // Writing to a Vec cannot fail.
        let _ = gz.write_all(json.as_bytes());
        let bytes = gz.finish().unwrap_or_default();
        let text = base64::engine::general_purpose::STANDARD.encode(bytes);
        self.encoded.push((id.to_string(), text));
        Ok(self)
    }

    /// Links the style sheet at `href`, a file of the program's own beside the page (a
    /// relative URL of plain characters), allowed by the policy as `'self'`.
    ///
    /// # Panics
    /// When `href` is not a plain relative file name (letters, digits, `.`, `-`, `_`, `/`).
    pub fn link_style(&mut self, href: &str) -> &mut Self {
        self.linked_styles.push(plain_href(href));
        self
    }

    /// Links the script at `src`, a file of the program's own beside the page, run at the end
    /// of the body after the inline scripts, allowed by the policy as `'self'`.
    ///
    /// # Panics
    /// As [`Page::link_style`].
    pub fn link_script(&mut self, src: &str) -> &mut Self {
        self.linked_scripts.push(plain_href(src));
        self
    }

    /// The page's Content-Security-Policy: nothing from anywhere (`default-src 'none'`) but its
    /// own scripts and styles, by hash, and `data:` images.
    pub fn content_security_policy(&self) -> String {
        format!(
            "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
            source_list(&self.scripts, !self.linked_scripts.is_empty()),
            source_list(&self.styles, !self.linked_styles.is_empty())
        )
    }

    /// The whole page.
    pub fn render(&self) -> String {
        let size = self.body.len()
            + self.styles.iter().map(String::len).sum::<usize>()
            + self.scripts.iter().map(String::len).sum::<usize>()
            + self.data.iter().map(|(_, json)| json.len()).sum::<usize>()
            + self
                .encoded
                .iter()
                .map(|(_, text)| text.len())
                .sum::<usize>();
        let mut html = String::with_capacity(size + 1024);
        html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        let _ = writeln!(
            html,
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            escape_html(&self.content_security_policy())
        );
        html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        let _ = writeln!(html, "<title>{}</title>", escape_html(&self.title));
        for href in &self.linked_styles {
            let _ = writeln!(html, "<link rel=\"stylesheet\" href=\"{href}\">");
        }
        for css in &self.styles {
            let _ = writeln!(html, "<style>{css}</style>");
        }
        html.push_str("</head>\n<body>\n");
        html.push_str(&self.body);
        html.push('\n');
        for (id, json) in &self.data {
            let _ = writeln!(
                html,
                "<script type=\"application/json\" id=\"{}\">{json}</script>",
                escape_html(id)
            );
        }
        for (id, text) in &self.encoded {
            let _ = writeln!(
                html,
                "<script type=\"{GZIP_BASE64}\" id=\"{}\">{text}</script>",
                escape_html(id)
            );
        }
        for js in &self.scripts {
            let _ = writeln!(html, "<script>{js}</script>");
        }
        for src in &self.linked_scripts {
            let _ = writeln!(html, "<script src=\"{src}\"></script>");
        }
        html.push_str("</body>\n</html>\n");
        html
    }
}

/// `value` as JSON, for the data block `id`.
fn json_of<T: Serialize + ?Sized>(id: &str, value: &T) -> Result<String, PageError> {
    serde_json::to_string(value).map_err(|source| PageError::Json {
        id: id.to_string(),
        source,
    })
}

/// `text` with `&`, `<`, `>`, `"` and `'` written as character references: safe as an HTML
/// element's text or a quoted attribute's value; and, as on a terminal, its control and
/// invisible format characters but line breaks and tabs shown escaped
/// ([`crate::untrusted::layout`]): a bot's right-to-left override does not turn a page's text
/// around.
pub fn escape_html(text: &str) -> String {
    escape_with(&crate::untrusted::layout(text), |c| match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    })
}

/// JSON text with `<`, `>` and `&` as `\u` escapes. They can stand only inside JSON strings,
/// where the escapes mean the same characters, so the value is unchanged; and without a `<`
/// nothing can end the `<script>` element or open a comment in it.
fn escape_json(json: &str) -> String {
    escape_with(json, |c| match c {
        '<' => Some("\\u003c"),
        '>' => Some("\\u003e"),
        '&' => Some("\\u0026"),
        _ => None,
    })
}

/// `text` with each character that `escape` names replaced by what it gives.
fn escape_with(text: &str, escape: impl Fn(char) -> Option<&'static str>) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match escape(c) {
            Some(escaped) => out.push_str(escaped),
            None => out.push(c),
        }
    }
    out
}

/// A CSP source list of the SHA-256 hashes of `sources` (the exact text of each element),
/// with `'self'` first when the page links files of its own (`linked`), or `'none'`.
fn source_list(sources: &[String], linked: bool) -> String {
    if sources.is_empty() && !linked {
        return "'none'".to_string();
    }
    let own = linked.then(|| "'self'".to_string());
    let hashes: Vec<String> = own
        .into_iter()
        .chain(sources.iter().map(|text| {
            let digest = Sha256::digest(text.as_bytes());
            format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        }))
        .collect();
    hashes.join(" ")
}

/// `href`, a relative URL of the program's own files: plain characters only, so that it needs
/// no escaping and names no other place (no scheme, no `..`, no leading `/`).
fn plain_href(href: &str) -> String {
    let plain = !href.is_empty()
        && !href.starts_with('/')
        && !href.contains("..")
        && href
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/'));
    assert!(plain, "a linked file is a plain relative name: {href:?}");
    href.to_string()
}

/// The text of an inline `<tag>` element of the program's own, which must not close it.
fn inline_text(text: &str, tag: &str) -> String {
    assert!(
        !text.to_ascii_lowercase().contains(&format!("</{tag}")),
        "an inline <{tag}> must not close its element"
    );
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "</script><img src=x onerror=alert(1)><!-- & </style>";

    fn data_block(html: &str, id: &str) -> String {
        let open = format!("<script type=\"application/json\" id=\"{id}\">");
        let start = html.find(&open).expect("the block") + open.len();
        let end = start + html[start..].find("</script>").expect("its end");
        html[start..end].to_string()
    }

    #[test]
    fn data_blocks_hold_any_text_and_parse_back_to_it() {
        let value = serde_json::json!({"name": HOSTILE, "list": [1, "a<b>c&d"]});
        let mut page = Page::new("t");
        page.add_data("log", &value).unwrap();
        let html = page.render();
        let block = data_block(&html, "log");
        assert!(!block.contains('<') && !block.contains('>') && !block.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&block).unwrap();
        assert_eq!(back, value);
        // The hostile text appears nowhere as markup.
        assert!(!html.contains("<img"));
        assert_eq!(html.matches("</script>").count(), 1);
    }

    #[test]
    fn the_title_and_ids_are_escaped() {
        let mut page = Page::new(HOSTILE);
        page.add_data("a\"b", &1).unwrap();
        let html = page.render();
        assert!(html.contains("<title>&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains("id=\"a&quot;b\""));
        assert!(!html.contains("<img"));
    }

    #[test]
    fn a_bots_controls_and_overrides_are_shown_escaped_and_its_line_breaks_kept() {
        assert_eq!(
            escape_html("a\u{202e}b\u{1b}[2J<i>\nc\td"),
            "a\\u{202e}b\\u{1b}[2J&lt;i&gt;\nc\td"
        );
    }

    #[test]
    fn the_policy_names_each_script_and_style_by_its_hash_and_nothing_else() {
        let mut page = Page::new("t");
        page.add_script("console.log(1);")
            .add_style("body { color: red }");
        let csp = page.content_security_policy();
        // echo -n 'console.log(1);' | openssl dgst -sha256 -binary | base64
        assert!(
            csp.contains("script-src 'sha256-NcFG924SlHfGQGG8hFEeEJDz1NgFlxPmZj3Us1sfdkI='"),
            "{csp}"
        );
        assert!(csp.starts_with("default-src 'none';"));
        assert!(csp.contains("img-src data:"));
        assert!(!csp.contains("unsafe"));
        assert!(!csp.contains("connect-src"), "default-src 'none' covers it");
        let html = page.render();
        assert!(html.contains("<script>console.log(1);</script>"));
        assert!(html.contains("<style>body { color: red }</style>"));
        assert!(html.contains(&format!("content=\"{}\"", escape_html(&csp))));
    }

    #[test]
    fn linked_files_are_allowed_as_self_and_compressed_data_decodes_back() {
        use base64::Engine as _;
        use std::io::Read as _;
        let mut page = Page::new("t");
        page.link_style("viewer.css")
            .link_script("viewer.js")
            .add_script("go();");
        let value = serde_json::json!({"name": HOSTILE});
        page.add_compressed_data("log", &value).unwrap();
        let csp = page.content_security_policy();
        assert!(csp.contains("script-src 'self' 'sha256-"), "{csp}");
        assert!(csp.contains("style-src 'self';"), "{csp}");
        let html = page.render();
        assert!(html.contains("<link rel=\"stylesheet\" href=\"viewer.css\">"));
        assert!(html.find("<script>go();").unwrap() < html.find("src=\"viewer.js\"").unwrap());
        let open = format!("<script type=\"{GZIP_BASE64}\" id=\"log\">");
        let start = html.find(&open).unwrap() + open.len();
        let text = &html[start..start + html[start..].find("</script>").unwrap()];
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text)
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&json).unwrap(),
            value
        );
        assert!(!html.contains("<img"));
    }

    #[test]
    #[should_panic(expected = "plain relative name")]
    fn a_linked_file_elsewhere_is_refused() {
        Page::new("t").link_script("../x.js");
    }

    #[test]
    fn a_page_without_scripts_allows_none() {
        let csp = Page::new("t").content_security_policy();
        assert!(csp.contains("script-src 'none'; style-src 'none'"), "{csp}");
    }

    #[test]
    fn scripts_come_after_the_data_they_read() {
        let mut page = Page::new("t");
        page.add_script("x();").add_data("d", &[1, 2]).unwrap();
        page.set_body("<main id=\"m\"></main>");
        let html = page.render();
        let body = html.find("<main").unwrap();
        let data = html.find("id=\"d\"").unwrap();
        let script = html.find("<script>x();").unwrap();
        assert!(body < data && data < script);
    }

    #[test]
    #[should_panic(expected = "must not close its element")]
    fn a_script_that_closes_its_element_is_refused() {
        Page::new("t").add_script("a = '</SCRIPT>';");
    }
}
