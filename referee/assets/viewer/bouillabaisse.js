"use strict";
// La Bouillabaisse's board: the manche, its chosen suit, face and card and what scores in it, the
// trick on the table (or the trick just won, and by whom), every seat's hand (the truth, or the
// seat's own) and the points per manche. It folds the recorded events (manche_start, dealt,
// card_played, trick_won, manche_scored); it computes no rule.
Referee.games.bouillabaisse = (() => {
  const { h, put, seatTag, seatClass, num } = Referee.dom;
  const cards = Referee.cards;
  const FACES = { 11: "J", 12: "Q", 13: "K" };

  function init(ctx) {
    const seat = ctx.seat;
    const t = seat === null ? ctx.start.truth : ctx.start.views[seat];
    const players = ctx.players.length;
    const zeros = () => new Array(players).fill(0);
    const hands = seat === null ? t.hands.map((hand) => hand.slice()) : ctx.players.map((_, k) => (k === seat ? t.hand.slice() : null));
    return {
      players,
      decks: t.decks,
      manche: t.manche || 0,
      dealer: t.dealer ?? null,
      leader: t.leader ?? null,
      trickNumber: t.trick_number || 0,
      chosen: t.manche ? t.chosen : null,
      scoring: t.scoring || null,
      removed: (t.removed || []).slice(),
      hands,
      counts: seat === null ? hands.map((hand) => hand.length) : new Array(players).fill(t.hand.length),
      trick: (t.trick || []).slice(),
      tricksTaken: t.tricks_taken ? t.tricks_taken.slice() : zeros(),
      points: t.points ? t.points.slice() : zeros(),
      totals: t.totals.slice(),
      manches: [],
      recent: {},
    };
  }

  function beginStep(b) {
    b.recent = {};
  }

  function apply(b, r, ctx) {
    if (r.type !== "event") return;
    const e = r.event;
    switch (e.kind) {
      case "manche_start":
        Object.assign(b, {
          manche: e.manche, dealer: e.dealer, leader: e.leader, chosen: e.chosen, scoring: e.scoring,
          removed: e.removed.slice(), trick: [], trickNumber: 1,
          tricksTaken: new Array(b.players).fill(0), points: new Array(b.players).fill(0),
        });
        b.recent.manche = e.manche;
        break;
      case "dealt":
        b.hands[r.to] = e.hand.slice();
        if (ctx.seat === null) b.counts[r.to] = e.hand.length;
        else b.counts.fill(e.hand.length);
        break;
      case "card_played": {
        b.trick.push({ seat: e.seat, card: e.card });
        const hand = b.hands[e.seat];
        if (hand && hand.includes(e.card)) hand.splice(hand.indexOf(e.card), 1);
        b.counts[e.seat] = Math.max(0, b.counts[e.seat] - 1);
        b.recent.played = { seat: e.seat, card: e.card };
        break;
      }
      case "trick_won":
        b.tricksTaken[e.seat] += 1;
        b.points[e.seat] += e.points;
        b.trick = [];
        b.leader = e.seat;
        b.trickNumber += 1;
        b.recent.won = e;
        break;
      case "manche_scored":
        b.manches.push(e);
        b.totals = e.totals.slice();
        b.points = e.points.slice();
        b.recent.scored = e;
        break;
      default:
        break;
    }
  }

  const chosenText = (c) => `suit ${cards.suitName(c.suit)} · face ${FACES[c.rank] || c.rank} · card ${c.card}`;

  function describe(e) {
    switch (e.kind) {
      case "manche_start":
        return `Manche ${e.manche} begins: dealer ${e.dealer}, leader ${e.leader}; chosen ${chosenText(e.chosen)}; ` +
          `scores: trick ${e.scoring.trick}, suit ${e.scoring.suit}, face ${e.scoring.rank}, card ${e.scoring.card}` +
          (e.removed.length ? `; removed ${e.removed.join(" ")}` : "");
      case "dealt":
        return `dealt ${e.hand.length} cards: ${e.hand.join(" ")}`;
      case "card_played":
        return `seat ${e.seat} plays ${e.card}`;
      case "trick_won":
        return `seat ${e.seat} wins the trick (${e.cards.map((c) => c.card).join(" ")}), worth ${e.points}`;
      case "manche_scored":
        return `Manche ${e.manche} scored: points ${e.points.join(" · ")}` +
          (e.all_or_nothing !== undefined && e.all_or_nothing !== null ? ` (all or nothing: seat ${e.all_or_nothing} reversed)` : "") +
          `; totals ${e.totals.join(" · ")}`;
      default:
        return JSON.stringify(e);
    }
  }

  const describeAction = (action) => (action && action.card ? `plays ${action.card}` : JSON.stringify(action));
  const boundary = (e) => (e.kind === "manche_start" ? `Manche ${e.manche}` : null);

  /** Marks on a card that the chosen suit, face or card names (what the manche's scoring reads). */
  function chosenClass(b, code) {
    if (!b.chosen) return "";
    const c = cards.parse(code);
    const out = [];
    if (c.suit === b.chosen.suit) out.push("chosen-suit");
    if (c.rank === FACES[b.chosen.rank]) out.push("chosen-rank");
    if (code === b.chosen.card) out.push("chosen-card");
    return out.join(" ");
  }

  function trickView(b, ctx) {
    const won = b.recent.won;
    const shown = won ? won.cards : b.trick;
    const caption = won
      ? h("span", {}, "Trick won by ", seatTag(won.seat, ctx.players), `, worth ${won.points}`)
      : h("span", {}, b.manche ? `Trick ${b.trickNumber}` : "No trick yet", b.leader !== null && b.manche ? h("span", {}, ", led by ", seatTag(b.leader, ctx.players)) : null);
    return h("div", { class: `trick${won ? " won" : ""}`, "data-trick-size": shown.length },
      h("div", { class: "caption" }, caption),
      h("div", { class: "trick-cards" }, shown.length ? shown.map((p) =>
        h("div", { class: `played${won && p.seat === won.seat ? " winner" : ""}${b.recent.played && b.recent.played.seat === p.seat ? " new" : ""}`, "data-seat": p.seat },
          cards.face(p.card, chosenClass(b, p.card)), seatTag(p.seat, ctx.players))) : h("span", { class: "note" }, "the table is empty")));
  }

  function seatBox(b, seat, ctx) {
    const hand = b.hands[seat];
    const roles = [];
    if (seat === b.dealer) roles.push(h("span", { class: "role" }, "dealer"));
    if (seat === b.leader) roles.push(h("span", { class: "role" }, "leads"));
    return h("div", { class: `seat-box ${seatClass(seat)}${ctx.seat === seat ? " viewing" : ""}`, "data-seat": seat },
      h("div", { class: "seat-head" }, seatTag(seat, ctx.players), roles),
      h("div", { class: "seat-figures" },
        h("span", { title: "tricks taken this manche" }, `tricks ${b.tricksTaken[seat]}`),
        h("span", { title: "points this manche" }, `points ${b.points[seat]}`),
        h("span", { title: "total after the finished manches", class: "total" }, `total ${num(b.totals[seat])}`)),
      h("div", { class: "seat-hand" }, hand
        ? (hand.length ? cards.row(hand, (code) => chosenClass(b, code)) : h("span", { class: "note" }, "no cards"))
        : h("span", { class: "hidden-hand", title: "hidden from this seat" }, Array.from({ length: Math.min(b.counts[seat], 20) }, () => cards.back()),
          h("span", { class: "note" }, ` ${b.counts[seat]} cards`))));
  }

  function mancheTable(b, ctx) {
    const rows = [h("tr", {}, h("th", {}, "manche"), ctx.players.map((_, seat) => h("th", { class: "num" }, seatTag(seat, ctx.players))))];
    for (const m of b.manches) {
      rows.push(h("tr", { "data-manche": m.manche, class: b.recent.scored === m ? "current" : "" }, h("td", {}, String(m.manche)),
        m.points.map((p, seat) => h("td", { class: `num${m.all_or_nothing === seat ? " reversed" : ""}`, title: m.all_or_nothing === seat ? "all or nothing: reversed" : null }, String(p)))));
    }
    rows.push(h("tr", { class: "totals" }, h("td", {}, "total"), b.totals.map((t) => h("td", { class: "num" }, num(t)))));
    return h("table", { class: "manche-points" }, rows);
  }

  function draw(b, root, ctx) {
    const info = h("div", { class: "info" },
      h("span", { class: "big" }, b.manche ? `Manche ${b.manche} of 6` : "Before the first manche"),
      b.recent.scored && b.recent.scored.manche !== b.manche
        ? h("span", { class: "scored-note" }, ` — manche ${b.recent.scored.manche} scored at this step`) : null,
      b.dealer !== null ? h("span", {}, " · dealer ", seatTag(b.dealer, ctx.players)) : null,
      ` · ${b.decks} deck${b.decks === 1 ? "" : "s"}`);
    const chosen = b.chosen ? h("div", { class: "chosen" },
      h("span", { class: "label" }, "chosen"),
      h("span", { class: "chosen-suit-name" }, `suit ${cards.suitName(b.chosen.suit)}`),
      h("span", {}, `face ${FACES[b.chosen.rank] || b.chosen.rank}`),
      h("span", {}, "card", cards.face(b.chosen.card, "chosen-card")),
      b.scoring ? h("span", { class: "scoring" }, `scores this manche: trick ${b.scoring.trick} · suit ${b.scoring.suit} · face ${b.scoring.rank} · card ${b.scoring.card}`) : null,
      b.removed.length ? h("span", { class: "removed" }, "removed ", cards.row(b.removed)) : null) : null;
    put(root, h("div", { class: "bouillabaisse" },
      info, chosen, trickView(b, ctx),
      h("div", { class: "seat-grid" }, ctx.players.map((_, seat) => seatBox(b, seat, ctx))),
      h("section", {}, h("h3", {}, "Points per manche"), mancheTable(b, ctx))));
  }

  return { title: "La Bouillabaisse", init, beginStep, apply, draw, describe, describeAction, boundary };
})();
