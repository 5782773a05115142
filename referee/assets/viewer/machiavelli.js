"use strict";
// Machiavelli's board: the melds on the table, with what the step's play changed (cards from the
// hand, cards moved from other melds, the table before it), the stock, every hand (the truth, or
// the seat's own and the others' sizes), the refused plays with their message and penalty, and
// the points per hand. It folds the recorded events (hand_start, dealt, played, drew, you_drew,
// passed, skipped, play_refused, hand_end) and, for a refused table, the action the perspective
// saw; it computes no rule. The stock is what the cards of the start leave in no hand and on no
// meld.
Referee.games.machiavelli = (() => {
  const { h, put, seatTag, seatClass, num } = Referee.dom;
  const cards = Referee.cards;
  const SUIT_ORDER = { C: 0, D: 1, H: 2, S: 3 };
  const RANK_ORDER = { A: 1, J: 11, Q: 12, K: 13 };
  /** The most finished hands and refused plays a board keeps to show (the totals cover all). */
  const HISTORY = 8;

  /** Cards in suit, then rank order, jokers last (for hands that grew by draws). */
  function sortCards(list) {
    const key = (code) => {
      const c = cards.parse(code);
      if (c.joker) return 1000;
      return SUIT_ORDER[c.suit] * 20 + (RANK_ORDER[c.rank] || Number(c.rank));
    };
    return list.slice().sort((a, b) => key(a) - key(b));
  }

  const tableCount = (table) => table.reduce((n, meld) => n + meld.length, 0);
  const sum = (list) => list.reduce((n, x) => n + x, 0);

  function init(ctx) {
    const seat = ctx.seat;
    const t = seat === null ? ctx.start.truth : ctx.start.views[seat];
    const players = ctx.players.length;
    const hands = seat === null ? t.hands.map((hand) => hand.slice()) : ctx.players.map((_, k) => (k === seat ? t.hand.slice() : null));
    const sizes = seat === null ? hands.map((hand) => hand.length) : t.hand_sizes.slice();
    const stock = seat === null ? t.stock.length : t.stock;
    const table = t.table.map((meld) => meld.slice());
    return {
      players,
      handNumber: t.hand_number,
      handsInMatch: ctx.start.views[0] ? ctx.start.views[0].hands : null,
      dealer: seat === null ? null : t.dealer,
      table,
      hands,
      sizes,
      totalCards: stock + sum(sizes) + tableCount(table),
      totals: t.totals.slice(),
      skipped: [],
      pending: {},
      refusals: [],
      refused: 0,
      handEnds: [],
      handsEnded: 0,
      revealed: null,
      recent: {},
    };
  }

  function beginStep(b) {
    b.recent = {};
  }

  function removeCards(hand, gone) {
    for (const code of gone) {
      const i = hand.indexOf(code);
      if (i >= 0) hand.splice(i, 1);
    }
  }

  function apply(b, r, ctx) {
    if (r.type === "action") {
      b.pending[r.seat] = r.action;
      return;
    }
    if (r.type !== "event") return;
    const e = r.event;
    switch (e.kind) {
      case "hand_start":
        Object.assign(b, { handNumber: e.hand_number, dealer: e.dealer, table: [], skipped: [], revealed: null });
        b.recent.handStart = e;
        break;
      case "dealt":
        b.hands[r.to] = e.cards.slice();
        if (ctx.seat === null) b.sizes[r.to] = e.cards.length;
        else b.sizes.fill(e.cards.length);
        break;
      case "played":
        b.recent.play = { seat: e.seat, before: b.table, after: e.table, fromHand: e.from_hand };
        b.table = e.table.map((meld) => meld.slice());
        b.sizes[e.seat] = e.hand_size;
        if (b.hands[e.seat]) removeCards(b.hands[e.seat], e.from_hand);
        break;
      case "drew":
        b.sizes[e.seat] += e.count;
        b.recent.drew = e;
        break;
      case "you_drew":
        if (b.hands[r.to]) b.hands[r.to] = sortCards(b.hands[r.to].concat(e.cards));
        b.recent.youDrew = { seat: r.to, cards: e.cards };
        break;
      case "passed":
        b.recent.passed = e.seat;
        break;
      case "skipped":
        b.skipped.push(e.seat);
        b.recent.skipped = e.seat;
        break;
      case "play_refused": {
        const action = b.pending[r.to];
        const refusal = { seat: r.to, message: e.message, hand: b.handNumber, attempted: action && action.play ? action.play : null };
        b.refused += 1;
        b.refusals.push(refusal);
        if (b.refusals.length > HISTORY) b.refusals.shift();
        b.recent.refused = refusal;
        break;
      }
      case "hand_end":
        b.handsEnded += 1;
        b.handEnds.push(e);
        if (b.handEnds.length > HISTORY) b.handEnds.shift();
        b.totals = e.totals.slice();
        b.revealed = e.hands_left;
        b.recent.handEnd = e;
        break;
      default:
        break;
    }
  }

  function describe(e) {
    switch (e.kind) {
      case "hand_start":
        return `Hand ${e.hand_number} begins: dealer ${e.dealer}, seat ${e.first} plays first`;
      case "dealt":
        return `dealt ${e.cards.length} cards: ${e.cards.join(" ")}`;
      case "played":
        return `seat ${e.seat} plays ${e.from_hand.join(" ")} from its hand; the table has ${e.table.length} melds, its hand ${e.hand_size} cards`;
      case "drew":
        return `seat ${e.seat} draws ${e.count} card${e.count === 1 ? "" : "s"}` +
          (e.reason === "invalid_play" ? " — the penalty of a refused play" : e.reason === "skip_penalty" ? " — the penalty of a second skip" : "");
      case "you_drew":
        return `drew ${e.cards.join(" ")}`;
      case "passed":
        return `seat ${e.seat} passes (the stock is empty)`;
      case "skipped":
        return `seat ${e.seat} skips`;
      case "play_refused":
        return `the play was refused: ${e.message}`;
      case "hand_end":
        return `Hand ${e.hand_number} ends${e.closer === null ? " with no closer" : `: seat ${e.closer} closed`}; points ${e.points.join(" · ")}; totals ${e.totals.join(" · ")}`;
      default:
        return JSON.stringify(e);
    }
  }

  function describeAction(action) {
    if (!action) return "";
    if (action.draw) return "draws";
    if (action.skip) return "skips";
    if (action.play) return `plays a table of ${action.play.length} melds`;
    return JSON.stringify(action);
  }

  const boundary = (e) => (e.kind === "hand_start" ? `Hand ${e.hand_number}` : null);

  /** A multiset of cards: card → count. */
  function counts(cards) {
    const m = new Map();
    for (const code of cards) m.set(code, (m.get(code) || 0) + 1);
    return m;
  }

  /** How many cards two multisets share. */
  function overlap(a, b) {
    let n = 0;
    for (const [code, k] of a) n += Math.min(k, b.get(code) || 0);
    return n;
  }

  /** The melds of `after` marked against `before`: the melds that were on the table as they are
   * stay unmarked; in each other meld, the cards it kept from the old meld it shares most with
   * stay unmarked too, the cards from the hand are marked `from-hand` and the rest, taken from
   * other melds, `moved`. */
  function marked(before, after, fromHand) {
    const key = (meld) => meld.slice().sort().join(" ");
    const old = new Map();
    for (const meld of before) old.set(key(meld), (old.get(key(meld)) || 0) + 1);
    const same = after.map((meld) => {
      const k = key(meld);
      if (!old.get(k)) return false;
      old.set(k, old.get(k) - 1);
      return true;
    });
    const left = [];
    for (const meld of before) {
      const k = key(meld);
      if (old.get(k)) {
        old.set(k, old.get(k) - 1);
        left.push(counts(meld));
      }
    }
    const handLeft = counts(fromHand);
    return after.map((meld, i) => {
      if (same[i]) return { meld, changed: false, classes: meld.map(() => "") };
      const mine = counts(meld);
      let origin = new Map();
      for (const candidate of left) if (overlap(mine, candidate) > overlap(mine, origin)) origin = candidate;
      const stay = new Map(origin);
      const classes = meld.map((code) => {
        if (stay.get(code)) {
          stay.set(code, stay.get(code) - 1);
          return "";
        }
        if (handLeft.get(code)) {
          handLeft.set(code, handLeft.get(code) - 1);
          return "from-hand";
        }
        return "moved";
      });
      return { meld, changed: true, classes };
    });
  }

  function meldsView(melds, className) {
    return h("div", { class: `melds ${className || ""}`.trim(), "data-melds": melds.length },
      melds.length ? melds.map((m) => h("span", { class: `meld${m.changed ? " changed" : ""}` },
        m.meld.map((code, i) => cards.face(code, m.classes[i])))) : h("span", { class: "note" }, "the table is empty"));
  }

  const plain = (table) => table.map((meld) => ({ meld, changed: false, classes: meld.map(() => "") }));

  function draw(b, root, ctx) {
    const stock = b.totalCards - sum(b.sizes) - tableCount(b.table);
    const info = h("div", { class: "info" },
      h("span", { class: "big" }, `Hand ${b.handNumber}${b.handsInMatch ? ` of ${b.handsInMatch}` : ""}`),
      b.dealer !== null ? h("span", {}, " · dealer ", seatTag(b.dealer, ctx.players)) : null,
      h("span", { class: "stock", "data-stock": stock }, ` · stock ${stock} cards`),
      ` · table ${tableCount(b.table)} cards in ${b.table.length} melds`);
    const notes = [];
    const play = b.recent.play;
    if (play) {
      const changed = marked(play.before, play.after, play.fromHand).filter((m) => m.changed).length;
      notes.push(h("div", { class: "play-note" }, seatTag(play.seat, ctx.players), ` plays ${play.fromHand.length} card${play.fromHand.length === 1 ? "" : "s"} from its hand `,
        cards.row(play.fromHand, () => "from-hand"), `; ${changed} meld${changed === 1 ? "" : "s"} new or rearranged`,
        h("span", { class: "legend" }, " ", h("span", { class: "swatch from-hand" }, "from the hand"), " ", h("span", { class: "swatch moved" }, "moved"))));
    }
    const refused = b.recent.refused;
    if (refused) {
      const penalty = b.recent.drew && b.recent.drew.reason === "invalid_play" ? b.recent.drew.count : null;
      notes.push(h("div", { class: "refused" },
        h("div", {}, seatTag(refused.seat, ctx.players), " — play refused: ", h("span", { class: "refusal-message" }, refused.message)),
        h("div", { class: "penalty" }, penalty === null ? "penalty: a draw from the stock" : `penalty: drew ${penalty} card${penalty === 1 ? "" : "s"}`, "; the table stays as it was"),
        refused.attempted ? h("div", { class: "attempted" }, h("span", { class: "label" }, "the table it sent:"),
          meldsView(refused.attempted.map((meld) => ({ meld: Array.isArray(meld) ? meld.map(String) : [String(meld)], changed: false, classes: [] })), "attempted")) : null));
    } else if (b.recent.drew && b.recent.drew.reason === "invalid_play") {
      notes.push(h("div", { class: "refused" }, seatTag(b.recent.drew.seat, ctx.players),
        ` — a play was refused (only the seat is told why); penalty: drew ${b.recent.drew.count}`));
    }
    if (b.recent.handEnd) {
      const e = b.recent.handEnd;
      notes.push(h("div", { class: "hand-end" }, `Hand ${e.hand_number} ends: `,
        e.closer === null ? "nobody closed" : h("span", {}, seatTag(e.closer, ctx.players), " closed"),
        "; cards left: ", e.hands_left.map((left, seat) => (left.length ? h("span", { class: "left" }, seatTag(seat, ctx.players), " ", cards.row(left), ` (${e.points[seat]} points)`) : null))));
    }
    const table = play ? marked(play.before, play.after, play.fromHand) : plain(b.table);
    const seatsView = h("table", { class: "mseats" },
      h("tr", {}, h("th", {}, "seat"), h("th", { class: "num" }, "cards"), h("th", {}, "hand"), h("th", { class: "num" }, "points")),
      ctx.players.map((_, seat) => h("tr", { class: `${seatClass(seat)}${ctx.seat === seat ? " viewing" : ""}`, "data-seat": seat },
        h("td", {}, seatTag(seat, ctx.players), b.skipped.includes(seat) ? h("span", { class: "role" }, "skipped") : null),
        h("td", { class: "num hand-size" }, String(b.sizes[seat])),
        h("td", { class: "mhand" }, b.hands[seat] ? cards.row(b.hands[seat], (code) =>
          b.recent.youDrew && b.recent.youDrew.seat === seat && b.recent.youDrew.cards.includes(code) ? "drawn" : "")
          : h("span", { class: "note" }, `${b.sizes[seat]} hidden`)),
        h("td", { class: "num" }, num(b.totals[seat])))));
    const hands = h("table", { class: "hand-points" },
      h("tr", {}, h("th", {}, "hand"), h("th", {}, "closer"), ctx.players.map((_, seat) => h("th", { class: "num" }, seatTag(seat, ctx.players)))),
      b.handsEnded > b.handEnds.length ? h("tr", { class: "note" }, h("td", { colspan: ctx.players.length + 2 }, `… ${b.handsEnded - b.handEnds.length} earlier hands`)) : null,
      b.handEnds.map((e) => h("tr", { "data-hand": e.hand_number }, h("td", {}, String(e.hand_number)),
        h("td", {}, e.closer === null ? "–" : String(e.closer)), e.points.map((p) => h("td", { class: "num" }, String(p))))),
      h("tr", { class: "totals" }, h("td", {}, "total"), h("td", {}), b.totals.map((t) => h("td", { class: "num" }, num(t)))));
    const refusals = b.refusals.slice().reverse().map((x) => h("li", {}, `hand ${x.hand}: `, seatTag(x.seat, ctx.players), " ",
      h("span", { class: "refusal-message" }, x.message)));
    put(root, h("div", { class: "machiavelli" },
      info, notes,
      h("section", { class: "table-area" }, h("h3", {}, play ? "The table after the play" : "The table"), meldsView(table, "current")),
      play && play.before.length ? h("details", { class: "before" }, h("summary", {}, "the table before this play"), meldsView(plain(play.before), "before")) : null,
      h("section", {}, h("h3", {}, "Hands"), seatsView),
      h("section", {}, h("h3", {}, "Points per hand"), hands),
      h("section", {}, h("h3", {}, `Refused plays${ctx.seat === null ? "" : " of this seat"} (${b.refused}${b.refused > b.refusals.length ? `, the last ${b.refusals.length} shown` : ""})`),
        refusals.length ? h("ol", { class: "refusals" }, refusals) : h("p", { class: "note" }, "none so far"))));
  }

  return { title: "Machiavelli", init, beginStep, apply, draw, describe, describeAction, boundary };
})();
