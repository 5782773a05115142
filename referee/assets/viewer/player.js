"use strict";
// The replay viewer's generic player: it reads the checked match log embedded in the page, cuts
// it into steps (the start, one step per decision, the end), and shows one step at a time: the
// board drawn by the game's module (Referee.games[game]) from the records folded so far, as the
// whole truth or as one seat knew it; what happened at that step; the stderr and faults of the
// seats; their decision times; and the scores over time. It knows no game: a game's module folds
// the records into its board and draws it (see docs/replay-viewer.md, "Adding a game").
(() => {
  const { h, put, seatTag, seatClass, num } = Referee.dom;
  const $ = (id) => document.getElementById(id);

  const records = JSON.parse($("match-log").textContent);
  const header = records[0];
  // The seed as written: JSON.parse rounds integers above 2^53.
  const seedText = JSON.parse($("match-seed").textContent);
  const start = records.find((r) => r.type === "start");
  const players = header.players;
  const seats = players.length;
  const game = Referee.games[header.game] || Referee.generic;

  // ---- Steps: the start (opening events), one per decision, the end. ----
  const steps = [{ kind: "start", n: null, records: [] }];
  for (const r of records.slice(1)) {
    let step = steps[steps.length - 1];
    if (r.type === "start") continue;
    if (r.type === "result" || r.type === "internal_error") {
      steps.push({ kind: "end", n: null, records: [r] });
      continue;
    }
    if (typeof r.n === "number" && r.n !== step.n && step.kind !== "end") {
      step = { kind: "decision", n: r.n, records: [] };
      steps.push(step);
    }
    step.records.push(r);
    if (r.type === "action") step.action = r;
  }
  const last = steps.length - 1;
  const decisions = steps.filter((s) => s.kind === "decision").length;

  // ---- What each seat knew: the records of a step one perspective folds. ----
  /** The records of `step` that `seat` (null: the whole truth) is shown. */
  function recordsFor(step, seat) {
    if (seat === null) return step.records;
    const out = [];
    for (const r of step.records) {
      if (r.type === "event" && !(r.to === "all" || r.to === seat)) continue;
      if (r.type === "action" && r.seat !== seat) continue;
      if (r.type === "result" || r.type === "internal_error") {
        // The final truth is the referee's, not the seat's.
        const { truth, ...told } = r;
        out.push(told);
        continue;
      }
      out.push(r);
    }
    return out;
  }

  const ctxFor = (seat) => ({ header, start, seat, players, options: header.options || {} });

  function foldStep(board, index, seat) {
    const ctx = ctxFor(seat);
    if (game.beginStep) game.beginStep(board, ctx);
    for (const r of recordsFor(steps[index], seat)) game.apply(board, r, ctx);
  }

  // Boards are folded forward from the nearest snapshot (one kept every SNAPSHOT_EVERY steps, at
  // most about 256 of them), so that stepping costs one step and scrubbing at most SNAPSHOT_EVERY.
  const SNAPSHOT_EVERY = Math.max(16, Math.ceil(steps.length / 256));
  const perspectives = new Map();
  function boardAt(index, seat) {
    const key = seat === null ? "truth" : seat;
    let p = perspectives.get(key);
    if (!p) {
      const board = game.init(ctxFor(seat));
      foldStep(board, 0, seat);
      p = { snapshots: new Map([[0, structuredClone(board)]]), board, at: 0 };
      perspectives.set(key, p);
    }
    if (p.at > index) {
      let from = Math.floor(index / SNAPSHOT_EVERY) * SNAPSHOT_EVERY;
      while (!p.snapshots.has(from)) from -= SNAPSHOT_EVERY;
      p.board = structuredClone(p.snapshots.get(from));
      p.at = from;
    }
    while (p.at < index) {
      p.at += 1;
      foldStep(p.board, p.at, seat);
      if (p.at % SNAPSHOT_EVERY === 0 && !p.snapshots.has(p.at)) p.snapshots.set(p.at, structuredClone(p.board));
    }
    return p.board;
  }

  // ---- Figures by step: scores, decision times, faults. ----
  const scoresAt = [];
  const stats = { decisions: [], total: [], max: [], faults: [] }; // per step, arrays by seat
  const faults = [];
  const series = Array.from({ length: seats }, () => []);
  {
    let scores = null;
    const d = new Array(seats).fill(0), tot = new Array(seats).fill(0), mx = new Array(seats).fill(0), f = new Array(seats).fill(0);
    steps.forEach((step, i) => {
      for (const r of step.records) {
        if (r.type === "scores" || r.type === "result") {
          scores = r.scores;
          r.scores.forEach((v, seat) => {
            const points = series[seat];
            if (!points.length || points[points.length - 1][1] !== v) points.push([i, v]);
          });
        } else if (r.type === "action") {
          d[r.seat] += 1;
          tot[r.seat] += r.ms;
          mx[r.seat] = Math.max(mx[r.seat], r.ms);
        } else if (r.type === "fault") {
          f[r.seat] += 1;
          faults.push({ step: i, record: r });
        }
      }
      scoresAt.push(scores);
      stats.decisions.push(d.slice());
      stats.total.push(tot.slice());
      stats.max.push(mx.slice());
      stats.faults.push(f.slice());
    });
  }
  const result = records.find((r) => r.type === "result");
  const voidMatch = records.find((r) => r.type === "internal_error");

  // Round (manche, hand) boundaries, from the public events.
  const boundaries = [];
  steps.forEach((step, i) => {
    for (const r of step.records) {
      if (r.type !== "event" || r.to !== "all" || !game.boundary) continue;
      const label = game.boundary(r.event);
      if (label) boundaries.push({ step: i, label });
    }
  });

  // ---- Moments, named as the referee names them everywhere (referee/src/runner/moment.rs):
  // "match 21, its 5th turn (phase turn; log decision 14)" — the seat's own turn, counted from 1.
  const ordinal = (n) => {
    const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
    return `${n}${suffix}`;
  };
  /** The moment of step i's decision, without the match: "its 5th turn (phase turn; log decision 14)". */
  function turnWords(i) {
    const step = steps[i];
    if (step.kind === "start") return "at start-up, before its first turn";
    if (step.kind === "end" || !step.action) return "at the end of the match, after the last turn";
    const a = step.action;
    return `its ${ordinal(stats.decisions[i][a.seat])} turn (phase ${a.phase}; log decision ${step.n})`;
  }
  const matchWords = (i) => `match ${header.match_id}, ${turnWords(i)}`;
  /** The moment of a fault: its decision's, or outside any (before the first, after the last). */
  const faultWords = (f) => typeof f.record.n === "number" ? turnWords(f.step)
    : f.step === 0 ? "at start-up, before its first turn" : "at the end of the match, after the last turn";

  // ---- State of the page. ----
  // The perspectives the log holds: a log served to one seat's owner (a ladder's match page)
  // has no truth and no other seat's view, and offers only that seat's.
  const canSee = (seat) => (seat === null ? start.truth != null : start.views[seat] != null);
  const seen = [null, ...players.keys()].filter(canSee);
  const state = { step: 0, seat: seen.length ? seen[0] : null, timer: null };

  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const step = Number(params.get("step"));
    if (Number.isInteger(step) && step >= 0 && step <= last) state.step = step;
    // The log's decision number (a report's link to a fault): the step of that decision.
    const decision = params.get("decision");
    if (decision !== null) {
      const at = steps.findIndex((s) => s.kind === "decision" && s.n === Number(decision));
      if (at >= 0) state.step = at;
    }
    const view = params.get("view");
    if (view === "truth" && canSee(null)) state.seat = null;
    else if (view !== null && Number(view) >= 0 && Number(view) < seats && canSee(Number(view))) state.seat = Number(view);
  }

  function writeHash() {
    const hash = `#step=${state.step}&view=${state.seat === null ? "truth" : state.seat}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  // ---- Static parts: title, perspective switch, chart, marks. ----
  const scoreName = header.score_name || "score";
  document.title = `${header.game} ${header.match_id} — referee replay`;
  put($("title"), `${game.title || header.game}`);
  // A log without the truth has no seed either (a seed gives every deal away).
  const seedWords = canSee(null) ? ` · seed ${seedText}` : "";
  put($("match-info"), `match ${header.match_id}${seedWords} · ${seats} seats · ${decisions} decisions · ${scoreName} (${header.higher_is_better ? "higher" : "lower"} is better)`);

  const viewButtons = [];
  function viewButton(seat) {
    const label = seat === null ? "whole truth" : `${seat} ${players[seat].name}`;
    const b = h("button", {
      class: seat === null ? "view truth" : `view ${seatClass(seat)}`,
      "data-view": seat === null ? "truth" : seat,
      title: seat === null ? "everything, hidden cards included (T)" : `what seat ${seat} knew (${seat < 10 ? seat : "V"})`,
      onclick: () => setSeat(seat),
    }, seat === null ? null : h("span", { class: "dot" }), label);
    viewButtons.push(b);
    return b;
  }
  put($("perspective"), seen.map((seat) => viewButton(seat)));

  const chart = Referee.chart.scores(series, last, (step) => go(step));
  put($("chart"), chart.el);

  const scrub = $("scrub");
  scrub.max = String(last);
  const marks = $("marks");
  for (const b of boundaries) {
    const m = h("span", { class: "mark boundary", title: `${b.label} (step ${b.step})` });
    m.style.left = `${(100 * b.step) / Math.max(1, last)}%`;
    marks.append(m);
  }
  for (const f of faults) {
    const m = h("span", { class: "mark fault", title: `fault of seat ${f.record.seat} ${players[f.record.seat].name}, ${faultWords(f)}` });
    m.style.left = `${(100 * f.step) / Math.max(1, last)}%`;
    marks.append(m);
  }

  // ---- Rendering one step. ----
  const seatName = (seat) => players[seat].name;

  function stepLabel(i) {
    const step = steps[i];
    if (step.kind === "start") return "Start: the deal and the opening events";
    if (step.kind === "end") return voidMatch ? "End: the match is void (the game failed)" : "End: final scores and ranks";
    const a = step.action;
    return a ? `${matchWords(i)} · seat ${a.seat} ${seatName(a.seat)}` : `match ${header.match_id}, log decision ${step.n}`;
  }

  function describeAction(r) {
    const text = game.describeAction ? game.describeAction(r.action, r.phase) : JSON.stringify(r.action);
    return text;
  }

  function recordItem(r) {
    switch (r.type) {
      case "fault":
        return h("li", { class: "fault" }, seatTag(r.seat, players), " fault ", h("b", {}, r.fault), ": ",
          h("span", { class: "fault-message" }, r.message));
      case "action":
        return h("li", { class: `action${r.substituted ? " substituted" : ""}` }, seatTag(r.seat, players), " ",
          describeAction(r), h("span", { class: "ms" }, ` ${r.ms.toFixed(1)} ms${r.overrun ? " (late, an overrun)" : ""}`),
          r.substituted ? h("span", { class: "note" }, " — played by the referee") : null);
      case "event":
        return h("li", { class: r.to === "all" ? "event" : "event private" },
          r.to === "all" ? null : h("span", { class: "to" }, `to seat ${r.to} only: `),
          game.describe ? game.describe(r.event, players) : JSON.stringify(r.event));
      case "scores":
        return h("li", { class: "scores" }, `${scoreName}: `, r.scores.map(num).join(" · "));
      case "result":
        return h("li", { class: "result" }, `final ${scoreName}: `, r.scores.map(num).join(" · "), " — ranks: ",
          r.ranks.join(" · "));
      case "internal_error":
        return h("li", { class: "fault" }, "the game failed: ", h("span", { class: "fault-message" }, r.message));
      default:
        return null;
    }
  }

  function renderRecords(i) {
    const shown = recordsFor(steps[i], state.seat).filter((r) => r.type !== "stderr");
    const items = shown.map(recordItem).filter(Boolean);
    if (state.seat !== null && steps[i].action && steps[i].action.seat !== state.seat)
      items.unshift(h("li", { class: "note" }, seatTag(steps[i].action.seat, players), " decided (seat ", String(state.seat), " is not told the action, only the events)"));
    put($("records"), items.length ? items : h("li", { class: "note" }, "nothing this seat was told"));
    put($("step-label"), stepLabel(i));
  }

  function renderStderr(i) {
    const out = steps[i].records.filter((r) => r.type === "stderr").map((r) =>
      h("div", { class: "stderr-item", "data-seat": r.seat }, seatTag(r.seat, players),
        r.cut ? h("span", { class: "note" }, ` (${num(r.cut)} earlier bytes cut)`) : null,
        h("pre", {}, r.text)));
    put($("stderr"), out.length ? out : h("p", { class: "note" }, "no bot wrote to stderr at this step"));
  }

  function renderSeats(i) {
    const scores = scoresAt[i];
    const mover = steps[i].action ? steps[i].action.seat : null;
    const stepFaults = new Set(steps[i].records.filter((r) => r.type === "fault").map((r) => r.seat));
    const rows = [h("tr", {},
      h("th", {}, "seat"), h("th", { class: "num" }, scoreName),
      steps[i].kind === "end" && result ? h("th", { class: "num" }, "rank") : null,
      h("th", { class: "num", title: "decisions so far" }, "dec."),
      h("th", { class: "num", title: "mean and longest decision time so far" }, "mean/max ms"),
      h("th", { class: "num", title: "faults so far" }, "faults"),
      h("th", { class: "num", title: "this step's decision time" }, "now"))];
    for (let seat = 0; seat < seats; seat++) {
      const d = stats.decisions[i][seat];
      const mean = d ? stats.total[i][seat] / d : 0;
      const hello = players[seat].hello_name;
      const nowMs = mover === seat ? `${steps[i].action.ms.toFixed(1)}` : "";
      rows.push(h("tr", {
        class: `seat-row${mover === seat ? " mover" : ""}${stepFaults.has(seat) ? " faulted" : ""}${state.seat === seat ? " viewing" : ""}`,
        "data-seat": seat,
      },
      h("td", { title: `${players[seat].bot}${hello ? ` (says it is “${hello}”)` : ""}` }, seatTag(seat, players),
        hello && hello !== players[seat].name ? h("div", { class: "hello" }, `“${hello}”`) : null),
      h("td", { class: "num score" }, scores ? num(scores[seat]) : ""),
      steps[i].kind === "end" && result ? h("td", { class: "num rank" }, String(result.ranks[seat])) : null,
      h("td", { class: "num" }, String(d)),
      h("td", { class: "num" }, d ? `${mean.toFixed(1)} / ${stats.max[i][seat].toFixed(1)}` : "–"),
      h("td", { class: `num faults${stats.faults[i][seat] ? " some" : ""}` }, String(stats.faults[i][seat])),
      h("td", { class: "num now" }, nowMs)));
    }
    put($("seats"), rows);
  }

  const FAULTS_SHOWN = 50;
  /** How many faults happened up to step i (faults are in step order). */
  function faultsUpTo(i) {
    let lo = 0, hi = faults.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (faults[mid].step <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function renderFaults(i) {
    const count = faultsUpTo(i);
    put($("fault-count"), `(${count} so far, ${faults.length} in the match)`);
    const items = faults.slice(Math.max(0, count - FAULTS_SHOWN), count).reverse().map((f) =>
      h("li", { class: f.step === i ? "current" : "" },
        seatTag(f.record.seat, players), ", ",
        h("button", { class: "link", onclick: () => go(f.step), title: "go to this step" }, faultWords(f)), ": ",
        h("b", {}, f.record.fault), ": ",
        h("span", { class: "fault-message" }, f.record.message)));
    if (count > FAULTS_SHOWN) items.push(h("li", { class: "note" }, `… and ${count - FAULTS_SHOWN} earlier`));
    put($("faults"), items);
  }

  function renderBoard(i) {
    const board = boardAt(i, state.seat);
    const ctx = Object.assign(ctxFor(state.seat), { step: steps[i], index: i, last });
    game.draw(board, $("board"), ctx);
    put($("view-note"), state.seat === null
      ? "the whole truth: every hidden card and every seat's action"
      : `what seat ${state.seat} (${seatName(state.seat)}) knew: its start view, the events told to it and its own actions`);
  }

  function render() {
    const i = state.step;
    renderBoard(i);
    renderRecords(i);
    renderStderr(i);
    renderSeats(i);
    renderFaults(i);
    chart.setCursor(i);
    chart.highlight(state.seat);
    scrub.value = String(i);
    const where = steps[i].kind === "decision" ? `log decision ${steps[i].n} of ${decisions}` : steps[i].kind;
    put($("position"), `${where} (step ${i} / ${last})`);
    for (const b of viewButtons) b.classList.toggle("active", b.dataset.view === (state.seat === null ? "truth" : String(state.seat)));
    document.body.dataset.step = String(i);
    document.body.dataset.view = state.seat === null ? "truth" : String(state.seat);
    writeHash();
  }

  // ---- Moving. ----
  function go(step) {
    const to = Math.max(0, Math.min(last, step));
    if (to === state.step) return;
    state.step = to;
    render();
  }

  function setSeat(seat) {
    if (!canSee(seat)) return;
    state.seat = seat;
    render();
  }

  function nextBoundary(dir) {
    const list = dir > 0 ? boundaries.filter((b) => b.step > state.step) : boundaries.filter((b) => b.step < state.step).reverse();
    go(list.length ? list[0].step : dir > 0 ? last : 0);
  }

  function setPlaying(on) {
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    $("play").textContent = on ? "❚❚" : "▶";
    $("play").setAttribute("aria-label", on ? "pause" : "play");
    if (!on) return;
    const tick = () => {
      if (state.step >= last) return setPlaying(false);
      go(state.step + 1);
      state.timer = setTimeout(tick, 1000 / Number($("speed").value));
    };
    if (state.step >= last) go(0);
    state.timer = setTimeout(tick, 1000 / Number($("speed").value));
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.step - 1));
  $("next").addEventListener("click", () => go(state.step + 1));
  $("last").addEventListener("click", () => go(last));
  $("play").addEventListener("click", () => setPlaying(!state.timer));
  scrub.addEventListener("input", () => go(Number(scrub.value)));

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target instanceof HTMLSelectElement) return;
    const handled = {
      ArrowRight: () => go(state.step + (e.shiftKey ? 10 : 1)),
      ArrowLeft: () => go(state.step - (e.shiftKey ? 10 : 1)),
      PageDown: () => nextBoundary(1),
      PageUp: () => nextBoundary(-1),
      Home: () => go(0),
      End: () => go(last),
      " ": () => setPlaying(!state.timer),
      t: () => setSeat(null),
      v: () => setSeat(seen[(seen.indexOf(state.seat) + 1) % seen.length]),
    }[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (handled) {
      e.preventDefault();
      handled();
    } else if (/^[0-9]$/.test(e.key) && Number(e.key) < seats) {
      e.preventDefault();
      setSeat(Number(e.key));
    }
  });
  window.addEventListener("hashchange", () => { readHash(); render(); });

  readHash();
  render();
  document.body.dataset.ready = "true";
})();
