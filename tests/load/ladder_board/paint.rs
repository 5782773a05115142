//! The board in a real browser: Debian's headless Chromium, driven as the e2e tests drive it
//! (`crate::browser`, the DevTools protocol on a pipe). Each load is read from the page's own
//! Performance API once it has painted and loaded: the first contentful paint
//! (`performance.getEntriesByName('first-contentful-paint')`), the navigation's timings and
//! sizes (`getEntriesByType('navigation')`), and its style and script's
//! (`getEntriesByType('resource')`); all times from the navigation's start.

use crate::browser::Browser;
use serde_json::Value;

use super::http::quantile;

/// One load of the board.
#[derive(Clone, Debug)]
pub struct Load {
    /// The first contentful paint, in milliseconds.
    pub fcp_ms: f64,
    /// The HTML's first byte.
    pub response_start_ms: f64,
    /// The HTML's last byte.
    pub response_end_ms: f64,
    /// The end of `DOMContentLoaded`.
    pub dom_content_loaded_ms: f64,
    /// The end of the load event.
    pub load_ms: f64,
    /// The HTML's bytes over the wire (its head included).
    pub html_transfer: u64,
    /// The HTML's bytes.
    pub html_bytes: u64,
    /// The style sheets and scripts it loaded.
    pub assets: u64,
    /// Their bytes over the wire (0 for those the cache gave).
    pub assets_transfer: u64,
    /// Their bytes.
    pub assets_bytes: u64,
    /// The board's rows in the page.
    pub rows: u64,
}

/// The board's loads in a new browser each time, and again in one that loaded it before.
#[derive(Clone, Debug, Default)]
pub struct Loads {
    /// Each in a new Chromium: an empty cache, a new connection.
    pub cold: Vec<Load>,
    /// Each in one Chromium that loaded the board before (by way of `about:blank`).
    pub warm: Vec<Load>,
}

impl Loads {
    /// The `q`-quantile of `what` over `loads` (nearest rank).
    pub fn quantile(loads: &[Load], what: fn(&Load) -> f64, q: f64) -> f64 {
        quantile(&loads.iter().map(what).collect::<Vec<_>>(), q)
    }
}

/// What the page says of its load, once it has painted and its load event is over (or after
/// 20 s, when the paint's entry is missing and the load fails below).
const MEASURE: &str = r#"new Promise((done) => {
  const t0 = Date.now();
  const poll = () => {
    const nav = performance.getEntriesByType('navigation')[0];
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    if (!(paint && nav && nav.loadEventEnd > 0) && Date.now() - t0 < 20000) {
      setTimeout(poll, 10);
      return;
    }
    const assets = performance.getEntriesByType('resource')
      .filter((r) => r.initiatorType === 'link' || r.initiatorType === 'script');
    const sum = (key) => assets.reduce((n, r) => n + r[key], 0);
    done({
      fcp: paint ? paint.startTime : null,
      response_start: nav.responseStart,
      response_end: nav.responseEnd,
      dom_content_loaded: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd,
      html_transfer: nav.transferSize,
      html_bytes: nav.decodedBodySize,
      assets: assets.length,
      assets_transfer: sum('transferSize'),
      assets_bytes: sum('decodedBodySize'),
      rows: document.querySelectorAll('table.board tbody tr').length,
    });
  };
  poll();
})"#;

/// Opens the board at `url` in `browser` and reads its load.
fn load(browser: &mut Browser, url: &str) -> Load {
    browser.open_url(url);
    let v: Value = browser.eval(MEASURE);
    let ms = |key: &str| v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"));
    let n = |key: &str| v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"));
    Load {
        fcp_ms: v["fcp"]
            .as_f64()
            .unwrap_or_else(|| panic!("the board had no first contentful paint: {v}")),
        response_start_ms: ms("response_start"),
        response_end_ms: ms("response_end"),
        dom_content_loaded_ms: ms("dom_content_loaded"),
        load_ms: ms("load"),
        html_transfer: n("html_transfer"),
        html_bytes: n("html_bytes"),
        assets: n("assets"),
        assets_transfer: n("assets_transfer"),
        assets_bytes: n("assets_bytes"),
        rows: n("rows"),
    }
}

/// The board at `url` loaded `cold` times in a new Chromium each, then `warm` times in one
/// that loaded it once before; `None` (said visibly) where no Chromium is installed.
pub(super) fn loads(url: &str, cold: usize, warm: usize) -> Option<Loads> {
    let board = format!("{url}/");
    let mut loads = Loads::default();
    for _ in 0..cold {
        let mut browser = Browser::launch("ladder board scale", &[])?;
        loads.cold.push(load(&mut browser, &board));
    }
    let mut browser = Browser::launch("ladder board scale", &[])?;
    load(&mut browser, &board);
    for _ in 0..warm {
        browser.open_url("about:blank");
        loads.warm.push(load(&mut browser, &board));
    }
    Some(loads)
}
