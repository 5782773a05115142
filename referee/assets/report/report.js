"use strict";
// The tournament report: draws the data the referee gathered (the `report-data` block) and the
// list of replay pages it wrote (`report-replays`). It computes nothing the data does not hold.
// Every text from the results (bot names, commands, fault messages, stderr) goes onto the page
// through textContent or an attribute, never as markup: the replay viewer's DOM helpers
// (assets/viewer/dom.js) make the elements, and its chart's ticks (chart.js) mark the axes.
(() => {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const replays = JSON.parse(document.getElementById("report-replays").textContent);
  const withPage = new Set(replays.pages);
  const { h, s, num, seatColour: colour } = Referee.dom;
  const byId = (id) => document.getElementById(id);
  // Bot names are letters, digits, '_', '-' and '.': safe in an id and a fragment.
  const botAnchor = (bot) => `bot-${bot}`;
  const replayHref = (id) => `replays/${Number(id)}.html`;

  function header() {
    const meta = data.meta;
    byId("title").textContent = `${meta.game} tournament — ${meta.schedule}`;
    byId("summary").textContent = data.table.summary;
    const policy = Object.entries(meta.policy).map(([k, v]) => `${k} ${v}`).join(", ");
    byId("about").textContent =
      `${meta.bots.length} bots, ${meta.players} per match, seed ${data.seed}, ` +
      `duplicate play ${meta.duplicate ? "on" : "off"}, at most ${meta.max_faults} faults per bot and match, ` +
      `what faults cost: ${policy}. Results: ${data.dir}`;
    // One bot's report (report --bot NAME): it holds that bot's part alone.
    if (data.for_bot) {
      byId("summary").before(h("p", { id: "for-bot", class: "for-bot" },
        `The report of ${data.for_bot}: its matches, faults and stderr; the other bots by name and numbers only.`));
    }
  }

  function leaderboard() {
    const table = byId("standings");
    const columns = data.table.columns;
    // The faults column's cells are long: they may wrap.
    const wide = columns.findIndex((c) => c.title === "faults");
    table.tHead.append(h("tr", {}, columns.map((c, i) =>
      h("th", { title: c.legend, class: i === 1 || i === wide ? "text" : null }, c.title))));
    data.table.rows.forEach((row) => {
      table.tBodies[0].append(h("tr", { "data-bot": row[1] }, row.map((cell, i) =>
        i === 1
          ? h("td", { class: "text" }, data.for_bot && cell !== data.for_bot
            ? cell // one bot's report: the others have no section
            : h("a", { href: `#${botAnchor(cell)}` }, cell))
          : h("td", { class: i === wide ? "wide" : null }, cell))));
    });
    // What a reader must know before comparing the rows, under the table (issue 28).
    const notes = data.table.notes || [];
    notes.slice().reverse().forEach((note) => table.parentElement.after(h("p", { class: "note" }, note)));
    const legend = byId("legend");
    columns.forEach((c) => legend.append(h("dt", {}, c.title), h("dd", {}, c.legend)));
  }

  function headToHead() {
    byId("h2h-legend").textContent = data.legends.head_to_head;
    const rows = data.table.head_to_head;
    const table = byId("h2h");
    table.tHead.append(h("tr", {}, rows[0].map((title, i) => h("th", { class: i === 0 ? "text" : null }, title))));
    const names = rows[0].slice(1);
    rows.slice(1).forEach((row, i) => {
      const tr = h("tr", { "data-bot": row[0] }, h("th", { class: "text" }, row[0]));
      row.slice(1).forEach((text, j) => {
        const cell = data.board.head_to_head[i][j];
        if (i === j) tr.append(h("td", { class: "self" }, text));
        else if (cell.met === 0) tr.append(h("td", { class: "none", title: `${row[0]} and ${names[j]} never met` }, text));
        else {
          const td = h("td", {
            class: "cell",
            "data-above": cell.above,
            title: `${row[0]} finished above ${names[j]} in ${(cell.above * 100).toFixed(1)}% of their ${cell.met} meetings`,
          }, text);
          // Red (never above) through yellow to green (always above).
          td.style.background = `hsl(${Math.round(cell.above * 120)}, 70%, 72%)`;
          tr.append(td);
        }
      });
      table.tBodies[0].append(tr);
    });
  }

  /**
   * A line chart: series = [{name, points: [[x, y, lo, hi]...]}] (lo/hi: a band, optional);
   * xMax the axis's end, xLabel its name. Returns the SVG and its key.
   */
  function lineChart(id, series, xMax, xLabel, keyText) {
    const W = 1000, H = 360, LEFT = 56, RIGHT = 16, TOP = 12, BOTTOM = 34;
    const ys = series.flatMap((one) => one.points.flatMap((p) => [p[1], p[2] ?? p[1], p[3] ?? p[1]]));
    let lo = Math.min(...ys), hi = Math.max(...ys);
    if (!isFinite(lo)) { lo = 0; hi = 1; }
    if (lo === hi) hi = lo + 1;
    const x = (v) => LEFT + ((W - LEFT - RIGHT) * v) / Math.max(1, xMax);
    const y = (v) => TOP + ((H - TOP - BOTTOM) * (hi - v)) / (hi - lo);
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, id, role: "img", "aria-label": xLabel });
    for (const t of Referee.chart.ticks(lo, hi, 6)) {
      svg.append(s("line", { x1: LEFT, x2: W - RIGHT, y1: y(t), y2: y(t), class: "axis" }));
      svg.append(s("text", { x: LEFT - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, num(t)));
    }
    for (const t of Referee.chart.ticks(0, xMax, 8).filter(Number.isInteger)) {
      svg.append(s("text", { x: x(t), y: H - 16, "text-anchor": "middle", class: "tick" }, num(t)));
    }
    svg.append(s("text", { x: W - RIGHT, y: H - 2, "text-anchor": "end", class: "tick" }, xLabel));
    const groups = series.map((one, i) => {
      const g = s("g", { class: "series", "data-bot": one.name });
      if (one.points.length && one.points[0].length > 2) {
        const upper = one.points.map((p) => `${x(p[0]).toFixed(1)},${y(p[3]).toFixed(1)}`);
        const lower = one.points.map((p) => `${x(p[0]).toFixed(1)},${y(p[2]).toFixed(1)}`).reverse();
        g.append(s("polygon", { points: upper.concat(lower).join(" "), fill: colour(i), class: "band" }));
      }
      g.append(s("polyline", {
        points: one.points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" "),
        fill: "none", stroke: colour(i), "stroke-width": 2,
      }, s("title", {}, one.name)));
      svg.append(g);
      return g;
    });
    // A click on a bot's key shows it alone, its band stronger; another click shows all again.
    let shown = null;
    const key = h("p", { class: "key" }, series.map((one, i) => h("button", {
      type: "button", class: "key-item", "data-bot": one.name,
      onclick: () => {
        shown = shown === i ? null : i;
        groups.forEach((g, k) => {
          g.setAttribute("opacity", shown === null || shown === k ? 1 : 0.15);
          g.classList.toggle("chosen", shown === k);
        });
      },
    }, h("span", { class: "swatch" }), ` ${keyText(one)}`)));
    key.querySelectorAll(".swatch").forEach((sw, i) => { sw.style.background = colour(i); });
    return [svg, key];
  }

  function ratings() {
    byId("ratings-legend").textContent = data.legends.ratings;
    const series = data.ratings.map((one) => ({
      name: one.bot,
      points: one.points.map((p) => [p.after, p.mu, p.mu - 3 * p.sigma, p.mu + 3 * p.sigma]),
      last: one.points[one.points.length - 1],
    }));
    const matches = data.board.matches;
    const [svg, key] = lineChart("ratings-svg", series, matches, "matches played (in id order)", (one) =>
      one.last ? `${one.name}: μ ${one.last.mu.toFixed(2)}, μ − 3σ ${(one.last.mu - 3 * one.last.sigma).toFixed(2)}` : `${one.name}: no match`);
    byId("ratings-chart").append(svg, key);
    if (data.vp_rounds) {
      byId("vp-box").hidden = false;
      byId("vp-legend").textContent = data.legends.vp_rounds;
      const vp = data.vp_rounds.map((one) => ({
        name: one.bot,
        points: [[0, 0]].concat(one.totals.map((t, r) => [r + 1, t])),
        total: one.totals[one.totals.length - 1] || 0,
      }));
      const rounds = data.vp_rounds.length ? data.vp_rounds[0].totals.length : 0;
      const [vsvg, vkey] = lineChart("vp-svg", vp, rounds, "rounds", (one) => `${one.name}: ${one.total} VP`);
      byId("vp-chart").append(vsvg, vkey);
    }
  }

  /** The replay of match `id`: a link to its page, or where its log is. */
  function replayCell(m) {
    if (withPage.has(m.id)) return h("a", { class: "replay", href: replayHref(m.id) }, "replay");
    if (m.log) return h("span", { class: "none", title: replays.note || "" }, `logs/${m.id}.jsonl`);
    return h("span", { class: "none" }, "-");
  }

  /** The replay of the match of fault `f`, opened at its decision as the bot's seat saw it. */
  function faultReplay(m, f) {
    if (!m || !withPage.has(f.id)) return replayCell(m || { id: f.id });
    const at = f.decision === null ? "" : `decision=${Number(f.decision)}&`;
    return h("a", { class: "replay", href: `${replayHref(f.id)}#${at}view=${Number(m.seat)}`,
      title: "the replay, at this decision, as this bot saw it" }, "replay");
  }

  function stderrBlock(m, id) {
    const excerpt = m.stderr;
    if (!excerpt && m.stderr_unread) {
      return [h("p", { class: "stderr-head none" }, `The stderr of match ${id} was not read: ${m.stderr_unread}`)];
    }
    if (!excerpt) {
      return [h("p", { class: "stderr-head none" }, `No stderr of match ${id} is recorded (results written before the referee indexed stderr, or its file is gone).`)];
    }
    const left = excerpt.cut > 0 ? `; its first ${num(excerpt.cut)} bytes left out` : "";
    return [
      h("p", { class: "stderr-head" },
        `stderr during match ${id}: stderr/${excerpt.file}, bytes ${num(excerpt.from)}–${num(excerpt.to)}${left}`),
      excerpt.text === ""
        ? h("p", { class: "none" }, "(the bot wrote nothing to stderr during this match)")
        : h("pre", { class: "stderr", "data-match": id }, excerpt.text),
    ];
  }

  /** A bot's faults of one kind, summed up: its line, a replay at the first, the messages by shape. */
  function faultSummary(kind, byMatch) {
    const first = kind.first;
    const div = h("div", { class: "fault-summary", "data-kind": kind.fault },
      h("div", { class: "where" }, kind.line, " ",
        faultReplay(byMatch.get(first.id) || { id: first.id, seat: first.seat }, first)));
    if (kind.groups.length > 1) {
      div.append(h("ul", { class: "groups" }, kind.groups.map((g) =>
        h("li", {}, h("b", {}, `×${g.count} `), h("span", { class: "message" }, g.name)))
        .concat(kind.other_groups ? [h("li", { class: "none" }, `… and ${kind.other_groups} rarer messages`)] : [])));
    }
    const text = first.stderr && first.stderr.text.trim() !== "" ? first.stderr.text : null;
    if (text) {
      div.append(h("details", { class: "first-stderr" },
        h("summary", {}, `the bot's stderr in match ${first.id}, where it first happened`),
        h("pre", { class: "stderr", "data-match": first.id }, text)));
    } else if (first.stderr_unread) {
      div.append(h("p", { class: "none" }, `The stderr of match ${first.id} was not read: ${first.stderr_unread}`));
    }
    return div;
  }

  function botSection(bot) {
    const faultyMatches = bot.matches.filter((m) => m.faults > 0);
    const section = h("section", { class: "bot", id: botAnchor(bot.bot), "data-bot": bot.bot },
      h("h3", {}, `${bot.rank}. ${bot.bot}`),
      h("p", { class: "command" }, bot.command),
      h("p", {}, `${bot.matches.length} matches, ${bot.faults.length} faults` +
        (faultyMatches.length ? ` in ${faultyMatches.length} of them` : "")));
    if (bot.faults.length) {
      section.append(h("h4", {}, "Faults"));
      const byMatch = new Map(faultyMatches.map((m) => [m.id, m]));
      // One line per kind (the referee's summary), then every fault behind a click.
      section.append(...bot.summary.map((kind) => faultSummary(kind, byMatch)));
      const all = h("details", { class: "all-faults" },
        h("summary", {}, `all ${bot.faults.length} faults, match by match, with the bot's stderr`));
      bot.faults.forEach((f, k) => {
        all.append(h("div", { class: "fault", "data-match": f.id, "data-kind": f.fault },
          h("div", { class: "where" }, `${f.moment}: ${f.fault} `, faultReplay(byMatch.get(f.id), f)),
          h("div", { class: "message" }, f.message)));
        // After the last fault of a match: what the bot wrote to stderr during it.
        const next = bot.faults[k + 1];
        if (!next || next.id !== f.id) all.append(...stderrBlock(byMatch.get(f.id), f.id));
      });
      section.append(all);
    } else {
      section.append(h("p", { class: "none" }, "No faults."));
    }
    const rows = bot.matches.map((m) => h("tr", { class: m.faults ? "faulty" : null, "data-match": m.id },
      h("td", {}, m.id), h("td", {}, m.group), h("td", {}, m.seat), h("td", {}, m.rank),
      h("td", {}, num(m.score)),
      h("td", { class: "text" }, m.players.map((p, seat) => (seat === m.seat ? null : `${seat} ${p}`)).filter(Boolean).join(" · ")),
      h("td", {}, m.faults + (m.forfeited ? " (forfeit)" : "")),
      h("td", { class: "text" }, replayCell(m))));
    section.append(h("details", { class: "matches" },
      h("summary", {}, `${bot.matches.length} matches`),
      h("div", { class: "scroll" }, h("table", {},
        h("thead", {}, h("tr", {}, ["match", "group", "seat", "rank", data.board.score_name, "others (by seat)", "faults", "replay"]
          .map((t, i) => h("th", { class: i >= 5 && i !== 6 ? "text" : null }, t)))),
        h("tbody", {}, rows)))));
    return section;
  }

  header();
  leaderboard();
  headToHead();
  ratings();
  byId("bot-list").append(...data.bots.map(botSection));
  document.body.setAttribute("data-ready", "true");
})();
