//! A real browser for the tests: Debian's `chromium`, headless, driven over the Chrome DevTools
//! Protocol on a pipe (`--remote-debugging-pipe`: commands on its file descriptor 3, replies and
//! events on 4, each a JSON text ended by a NUL byte). No debugging port is opened and no crate
//! is needed: the few commands a test uses (open a file, evaluate JavaScript, click, press a key,
//! take a screenshot) are each one CDP method.
//!
//! [`Browser::launch`] gives `None`, after saying so visibly, where no chromium is installed;
//! `.ci/run` installs it, so CI runs every browser test.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long one CDP command may go unanswered: a bound only a hung browser reaches, however
/// loaded the machine (a guard against a test that never ends, not a timing).
const ANSWER_WITHIN: Duration = Duration::from_secs(180);

/// The page size of every session (CSS pixels), so that screenshots are alike everywhere.
pub const VIEWPORT: (u32, u32) = (1400, 900);

/// Debian's chromium program itself. The `chromium` on `PATH` is a shell script that adds the
/// flags of `/etc/chromium.d/` (among them `--enable-remote-extensions`, which has the browser
/// ask for extension updates) and Google's API keys; the tests start the program without them.
const DEBIAN_CHROMIUM: &str = "/usr/lib/chromium/chromium";

/// The chromium program: Debian's, or else the first `chromium` on `PATH`.
pub fn chromium() -> Option<PathBuf> {
    if Path::new(DEBIAN_CHROMIUM).is_file() {
        return Some(PathBuf::from(DEBIAN_CHROMIUM));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// A headless chromium with one page, closed (its whole process group killed) on drop.
pub struct Browser {
    child: Child,
    commands: std::fs::File,
    incoming: Receiver<Value>,
    session: String,
    next_id: u64,
    /// Events received and not yet looked at by a wait, in order.
    events: Vec<Value>,
    profile: PathBuf,
}

impl Browser {
    /// Starts chromium with a new empty profile, and `extra` flags (e.g. a proxy), and opens a
    /// blank page. `None`, with a `SKIPPED` line naming `test`, when chromium is not installed.
    pub fn launch(test: &str, extra: &[&str]) -> Option<Browser> {
        let Some(exe) = chromium() else {
            crate::util::skipped(test, "no chromium on PATH (`apt-get install chromium`)");
            return None;
        };
        Some(Browser::start(&exe, test, extra))
    }

    /// Starts chromium as [`Browser::launch`] does, with every request it makes sent to the
    /// HTTP proxy at `127.0.0.1:port` (loopback included), so that a listener there hears
    /// whatever a page asks the network. Chromium's own services (component and extension
    /// updates, sign-in, network time), which ask Google's hosts whatever the flags say, are
    /// sent nowhere instead (their names resolve to nothing), so that the listener hears only
    /// the pages.
    pub fn launch_behind_proxy(test: &str, port: u16) -> Option<Browser> {
        const SERVICES: [&str; 3] = ["*.google.com", "*.googleapis.com", "*.gstatic.com"];
        let proxy = format!("--proxy-server=http://127.0.0.1:{port}");
        let bypass = format!("--proxy-bypass-list=<-loopback>;{}", SERVICES.join(";"));
        let nowhere: Vec<String> = SERVICES
            .iter()
            .map(|h| format!("MAP {h} ~NOTFOUND"))
            .collect();
        let rules = format!("--host-resolver-rules={}", nowhere.join(", "));
        Browser::launch(test, &[&proxy, &bypass, &rules])
    }

    fn start(exe: &Path, test: &str, extra: &[&str]) -> Browser {
        let profile = crate::util::temp_dir(&format!("chromium-{test}"));
        let (their_in, our_out) = pipe();
        let (our_in, their_out) = pipe();
        let (fd_in, fd_out) = (their_in.as_raw_fd(), their_out.as_raw_fd());
        let log = std::fs::File::create(profile.join("chromium.stderr")).unwrap();
        let mut cmd = Command::new(exe);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--mute-audio",
            // Chromium's own traffic, none of which a test needs: the network time service,
            // safe browsing, domain reliability, pings, crash reports, field trials.
            "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter,Translate",
            "--disable-client-side-phishing-detection",
            "--safebrowsing-disable-auto-update",
            "--disable-domain-reliability",
            "--disable-breakpad",
            "--disable-field-trial-config",
            "--no-pings",
            "--metrics-recording-only",
            "--remote-debugging-pipe",
        ])
        .arg(format!(
            "--user-data-dir={}",
            profile.join("profile").display()
        ))
        .arg(format!("--window-size={},{}", VIEWPORT.0, VIEWPORT.1))
        .args(extra)
        .args(
            // Whatever still asks the network goes to a closed port of this machine, unless
            // the test gives a proxy of its own.
            (!extra.iter().any(|a| a.starts_with("--proxy-server")))
                .then_some("--proxy-server=http://127.0.0.1:9"),
        )
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0);
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec. The pipe
        // ends are moved above 4 first, so that placing one on 3 cannot overwrite the other;
        // dup2 leaves the copies on 3 and 4 open across exec.
        unsafe {
            cmd.pre_exec(move || {
                let high_in = libc::fcntl(fd_in, libc::F_DUPFD_CLOEXEC, 10);
                let high_out = libc::fcntl(fd_out, libc::F_DUPFD_CLOEXEC, 10);
                if high_in < 0
                    || high_out < 0
                    || libc::dup2(high_in, 3) < 0
                    || libc::dup2(high_out, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        drop((their_in, their_out));
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(std::fs::File::from(our_in));
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                if message.last() == Some(&0) {
                    message.pop();
                }
                let Ok(value) = serde_json::from_slice::<Value>(&message) else {
                    break;
                };
                if tx.send(value).is_err() {
                    break;
                }
                message.clear();
            }
        });
        let mut browser = Browser {
            child,
            commands: std::fs::File::from(our_out),
            incoming,
            session: String::new(),
            next_id: 0,
            events: Vec::new(),
            profile,
        };
        let target = browser.call_browser("Target.createTarget", json!({"url": "about:blank"}));
        let attached = browser.call_browser(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Runtime.enable", "Network.enable"] {
            browser.call(domain, json!({}));
        }
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": VIEWPORT.0, "height": VIEWPORT.1, "deviceScaleFactor": 1, "mobile": false}),
        );
        browser
    }

    /// Sends a command to the page and returns its result; panics on a CDP error.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(method, params, Some(&session))
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, None)
    }

    fn send(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.commands.write_all(&bytes).unwrap();
        loop {
            let reply = self.receive(method);
            if reply["id"].as_u64() == Some(id) {
                assert!(
                    reply.get("error").is_none(),
                    "{method} failed: {}",
                    reply["error"]
                );
                return reply["result"].clone();
            }
            self.events.push(reply);
        }
    }

    fn receive(&mut self, waiting_for: &str) -> Value {
        match self.incoming.recv_timeout(ANSWER_WITHIN) {
            Ok(value) => {
                if value["method"] == "Page.javascriptDialogOpening" {
                    // A dialog would block the page: dismiss it (it stays among the errors).
                    self.next_id += 1;
                    let dismiss = json!({"id": self.next_id, "method": "Page.handleJavaScriptDialog",
                        "params": {"accept": false}, "sessionId": self.session});
                    let mut bytes = serde_json::to_vec(&dismiss).unwrap();
                    bytes.push(0);
                    self.commands.write_all(&bytes).unwrap();
                }
                value
            }
            Err(RecvTimeoutError::Timeout) => panic!(
                "chromium did not answer {waiting_for} within {ANSWER_WITHIN:?}; its stderr: {}",
                self.browser_stderr()
            ),
            Err(RecvTimeoutError::Disconnected) => panic!(
                "chromium closed its pipe while a test waited for {waiting_for}; its stderr: {}",
                self.browser_stderr()
            ),
        }
    }

    fn browser_stderr(&self) -> String {
        std::fs::read_to_string(self.profile.join("chromium.stderr")).unwrap_or_default()
    }

    /// Waits for the event `method` of the page (kept events first), and returns its params.
    fn wait_event(&mut self, method: &str) -> Value {
        if let Some(i) = self.events.iter().position(|e| e["method"] == method) {
            return self.events.remove(i)["params"].clone();
        }
        loop {
            let event = self.receive(method);
            if event["method"] == method {
                return event["params"].clone();
            }
            self.events.push(event);
        }
    }

    /// Opens a file and waits until it has loaded (its scripts have run).
    pub fn open(&mut self, file: &Path) {
        self.open_url(&file_url(file));
    }

    /// Opens `url` and waits until it has loaded (its scripts have run).
    pub fn open_url(&mut self, url: &str) {
        self.events.retain(|e| e["method"] != "Page.loadEventFired");
        let navigated = self.call("Page.navigate", json!({"url": url}));
        assert!(
            navigated.get("errorText").is_none(),
            "cannot open {url}: {}",
            navigated["errorText"]
        );
        self.wait_event("Page.loadEventFired");
    }

    /// Evaluates a JavaScript expression in the page (awaiting it if it is a promise) and
    /// returns its value as JSON; panics if it throws.
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression} threw: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    /// Waits until the JavaScript expression `condition` is true in the page, however long that
    /// takes (up to the bound of a hung browser).
    pub fn wait_until(&mut self, condition: &str) {
        let waited = self.eval(&format!(
            "new Promise((done) => {{ const t0 = Date.now(); const poll = () => {{ \
               if ({condition}) done(true); \
               else if (Date.now() - t0 > {}) done(false); \
               else setTimeout(poll, 10); }}; poll(); }})",
            ANSWER_WITHIN.as_millis() - 10_000
        ));
        assert_eq!(waited, json!(true), "the page never showed {condition}");
    }

    /// The `textContent` of the first element matching the CSS `selector`.
    pub fn text(&mut self, selector: &str) -> String {
        let value = self.eval(&format!(
            "(() => {{ const e = document.querySelector({}); return e ? e.textContent : null; }})()",
            json!(selector)
        ));
        value
            .as_str()
            .unwrap_or_else(|| panic!("no element matches {selector}"))
            .to_string()
    }

    /// The `textContent` of every element matching `selector`, in document order.
    pub fn texts(&mut self, selector: &str) -> Vec<String> {
        let value = self.eval(&format!(
            "[...document.querySelectorAll({})].map(e => e.textContent)",
            json!(selector)
        ));
        serde_json::from_value(value).unwrap()
    }

    /// How many elements match `selector`.
    pub fn count(&mut self, selector: &str) -> usize {
        self.eval(&format!(
            "document.querySelectorAll({}).length",
            json!(selector)
        ))
        .as_u64()
        .unwrap() as usize
    }

    /// Clicks the middle of the first element matching `selector` with the mouse, as a person
    /// would (it is scrolled into view first).
    pub fn click(&mut self, selector: &str) {
        let rect = self.eval(&format!(
            "(() => {{ const e = document.querySelector({}); if (!e) return null; \
               e.scrollIntoView({{block: 'center', inline: 'center'}}); \
               const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            json!(selector)
        ));
        let [x, y] = [rect[0].as_f64(), rect[1].as_f64()]
            .map(|v| v.unwrap_or_else(|| panic!("no element matches {selector}")));
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Clicks the first element matching `selector` (a form's button, a link) and waits until
    /// the page it leads to has loaded.
    pub fn click_and_load(&mut self, selector: &str) {
        self.events.retain(|e| e["method"] != "Page.loadEventFired");
        self.click(selector);
        self.wait_event("Page.loadEventFired");
    }

    /// Types `text` into the first element matching `selector`, as from the keyboard (the
    /// element is clicked first, which focuses it).
    pub fn type_into(&mut self, selector: &str, text: &str) {
        self.click(selector);
        self.call("Input.insertText", json!({ "text": text }));
    }

    /// Chooses the file `path` in the file input matching `selector`, as a person picking it in
    /// the browser's dialog would.
    pub fn choose_file(&mut self, selector: &str, path: &Path) {
        let document = self.call("DOM.getDocument", json!({}));
        let root = document["root"]["nodeId"].clone();
        let found = self.call(
            "DOM.querySelector",
            json!({ "nodeId": root, "selector": selector }),
        );
        let node = found["nodeId"].as_u64().unwrap_or(0);
        assert!(node != 0, "no element matches {selector}");
        self.call(
            "DOM.setFileInputFiles",
            json!({ "nodeId": node, "files": [path.display().to_string()] }),
        );
    }

    /// Presses and releases a key, as from the keyboard: `"ArrowRight"`, `"ArrowLeft"`,
    /// `"Home"`, `"End"`, `"PageUp"`, `"PageDown"`, `" "` (space) or a letter or digit.
    pub fn press(&mut self, key: &str) {
        self.key(key, 0);
    }

    /// Presses a key with Shift held.
    pub fn press_shifted(&mut self, key: &str) {
        self.key(key, 8);
    }

    fn key(&mut self, key: &str, modifiers: u32) {
        let (code, vk) = match key {
            "ArrowLeft" => ("ArrowLeft".to_string(), 37),
            "ArrowRight" => ("ArrowRight".to_string(), 39),
            "Home" => ("Home".to_string(), 36),
            "End" => ("End".to_string(), 35),
            "PageUp" => ("PageUp".to_string(), 33),
            "PageDown" => ("PageDown".to_string(), 34),
            " " => ("Space".to_string(), 32),
            digit if digit.len() == 1 && digit.as_bytes()[0].is_ascii_digit() => {
                (format!("Digit{digit}"), digit.as_bytes()[0] as u32)
            }
            letter if letter.len() == 1 => (
                format!("Key{}", letter.to_ascii_uppercase()),
                letter.to_ascii_uppercase().as_bytes()[0] as u32,
            ),
            other => panic!("no key code for {other:?}"),
        };
        let text = if key.len() == 1 { key } else { "" };
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk,
                       "modifiers": modifiers, "text": if kind == "keyDown" { text } else { "" }}),
            );
        }
    }

    /// Takes a screenshot of the whole page (PNG) into `path`.
    pub fn screenshot(&mut self, path: &Path) {
        use base64::Engine as _;
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true}),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap();
        std::fs::write(path, png).unwrap();
    }

    /// Writes the page's screenshot to `$REFEREE_SCREENSHOTS/NAME` when that variable is set (a
    /// relative directory is taken from the workspace root): how the docs' images are made.
    pub fn keep_screenshot(&mut self, name: &str) {
        if let Some(dir) = std::env::var_os("REFEREE_SCREENSHOTS") {
            let dir = crate::util::root().join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            self.screenshot(&dir.join(name));
        }
    }

    /// The uncaught JavaScript exceptions, `console.error` calls and dialogs (an `alert`) of the
    /// page so far.
    pub fn errors(&mut self) -> Vec<String> {
        self.collect_pending();
        self.events
            .iter()
            .filter_map(|e| match e["method"].as_str()? {
                "Runtime.exceptionThrown" => Some(e["params"]["exceptionDetails"].to_string()),
                "Runtime.consoleAPICalled" if e["params"]["type"] == "error" => {
                    Some(e["params"]["args"].to_string())
                }
                "Page.javascriptDialogOpening" => Some(format!("a dialog: {}", e["params"])),
                _ => None,
            })
            .collect()
    }

    /// The URL of every request the page made so far, as the network stack saw it (the page's
    /// own file and `data:` images included).
    pub fn requests(&mut self) -> Vec<String> {
        self.collect_pending();
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| {
                e["params"]["request"]["url"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }

    /// Keeps the events already sent (a round trip makes sure every earlier one has arrived).
    fn collect_pending(&mut self) {
        self.eval("0");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.send_close();
        // The whole process group: the browser, its zygotes and renderers.
        let pgid = self.child.id() as i32;
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Browser {
    fn send_close(&mut self) -> std::io::Result<()> {
        let mut bytes = serde_json::to_vec(&json!({"id": u64::MAX, "method": "Browser.close"}))?;
        bytes.push(0);
        self.commands.write_all(&bytes)
    }
}

/// A pipe (read end, write end), both closed on exec.
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills `fds` with two new descriptors, owned from here on.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

/// The `file://` URL of a file.
pub fn file_url(file: &Path) -> String {
    let absolute = std::fs::canonicalize(file).unwrap();
    let mut url = String::from("file://");
    for byte in absolute.to_str().unwrap().bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                url.push(byte as char)
            }
            other => url.push_str(&format!("%{other:02X}")),
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::html::Page;

    /// The harness itself: a page made by the referee's page builder opens, its script runs,
    /// a click and a key reach it, hostile data stays text, and a screenshot is a PNG.
    #[test]
    fn the_harness_opens_clicks_types_reads_and_screenshots_a_page() {
        let Some(mut browser) = Browser::launch("browser_harness", &[]) else {
            return;
        };
        let hostile = "</script><img src=x onerror=alert(1)>";
        let mut page = Page::new("harness");
        page.set_body("<button id=\"b\">0</button><p id=\"name\"></p><p id=\"key\"></p>")
            .add_data("d", &json!({"name": hostile}))
            .unwrap()
            .add_script(
                "const d = JSON.parse(document.getElementById('d').textContent);\n\
                 document.getElementById('name').textContent = d.name;\n\
                 const b = document.getElementById('b');\n\
                 b.addEventListener('click', () => { b.textContent = String(Number(b.textContent) + 1); });\n\
                 document.addEventListener('keydown', (e) => { document.getElementById('key').textContent += e.key; });",
            );
        let dir = crate::util::temp_dir("browser_harness");
        let file = dir.join("page.html");
        std::fs::write(&file, page.render()).unwrap();
        browser.open(&file);
        assert_eq!(browser.text("#name"), hostile);
        assert_eq!(browser.count("img"), 0, "the hostile name stayed text");
        browser.click("#b");
        browser.click("#b");
        assert_eq!(browser.text("#b"), "2");
        browser.press("ArrowRight");
        browser.press("x");
        assert_eq!(browser.text("#key"), "ArrowRightx");
        browser.wait_until("document.getElementById('b').textContent === '2'");
        assert_eq!(browser.texts("p"), [hostile, "ArrowRightx"]);
        let shot = dir.join("shot.png");
        browser.screenshot(&shot);
        let png = std::fs::read(&shot).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(browser.errors(), Vec::<String>::new());
        assert_eq!(browser.requests(), vec![file_url(&file)]);
    }
}
