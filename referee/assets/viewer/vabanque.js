"use strict";
// Vabanque's board: the circle of tables with their chips, the tokens, the cards placed face down
// this round (their type where the perspective knows it) and what each payout revealed and paid.
// It folds the recorded events (round_start, chip, card, move, payout) and, for the types of
// face-down cards, the card actions the perspective saw; it computes no rule.
Referee.games.vabanque = (() => {
  const { h, s, put, seatColour, seatTag, seatChip, num } = Referee.dom;
  const LETTER = { raise: "R", bluff: "B", trap: "T" };

  function init(ctx) {
    const seat = ctx.seat;
    const t = seat === null ? ctx.start.truth : ctx.start.views[seat];
    const players = ctx.players.length;
    const placed = seat === null ? t.cards_in_play : t.cards;
    // Each seat's hand at the start of a round, as its start view shows it.
    const dealt = ctx.start.views.map((v, k) => (seat === null || k === seat ? v.hand.slice() : null));
    return {
      players,
      tables: t.tables,
      round: t.round || 0,
      chipValue: t.chip_value || 0,
      order: t.order ? t.order.slice() : [],
      tableChips: t.table_chips.slice(),
      tokens: t.tokens.slice(),
      moved: t.moved ? t.moved.slice() : new Array(players).fill(false),
      money: t.money.slice(),
      cards: placed.map((c) => ({ owner: c.owner, table: c.table, card: c.card || null, revealed: false })),
      payouts: [],
      dealt,
      hands: dealt.map((hand) => hand && hand.slice()),
      pending: {},
      recent: {},
    };
  }

  function beginStep(b) {
    b.recent = {};
  }

  function apply(b, r) {
    if (r.type === "action" && r.action && r.action.card) b.pending[r.seat] = r.action.card;
    if (r.type !== "event") return;
    const e = r.event;
    switch (e.kind) {
      case "round_start":
        // The step that paid a round also starts the next: it shows the paid round's cards.
        if (b.recent.payout) b.recent.paidCards = b.cards;
        b.round = e.round;
        b.order = e.order.slice();
        b.chipValue = e.chip_value;
        b.cards = [];
        b.moved = new Array(b.players).fill(false);
        b.hands = b.dealt.map((hand) => hand && hand.slice());
        b.recent.round = e.round;
        break;
      case "chip":
        b.tableChips[e.table] += e.value;
        b.recent.chip = { seat: e.seat, table: e.table };
        break;
      case "card": {
        const card = b.pending[e.seat] || null;
        delete b.pending[e.seat];
        b.cards.push({ owner: e.seat, table: e.table, card, revealed: false });
        const hand = b.hands[e.seat];
        if (hand && card && hand.includes(card)) hand.splice(hand.indexOf(card), 1);
        b.recent.card = { seat: e.seat, table: e.table, index: b.cards.length - 1 };
        break;
      }
      case "move":
        b.tokens[e.seat] = e.to;
        b.moved[e.seat] = true;
        b.recent.move = { seat: e.seat, from: e.from, to: e.to };
        break;
      case "payout":
        b.payouts.push(e);
        b.money = e.money.slice();
        for (const paid of e.tables) {
          const here = b.cards.filter((c) => c.table === paid.table);
          paid.cards.forEach((shown, k) => {
            if (here[k] && here[k].owner === shown.owner) Object.assign(here[k], { card: shown.card, revealed: true });
          });
        }
        b.recent.payout = e.round;
        break;
      default:
        break;
    }
  }

  const cardName = (c) => c.card || "?";

  function describe(e) {
    switch (e.kind) {
      case "round_start":
        return `Round ${e.round} begins: chips of ${e.chip_value}, playing order ${e.order.join(", ")}`;
      case "chip":
        return `seat ${e.seat} puts a ${e.value} chip on table ${e.table}`;
      case "card":
        return `seat ${e.seat} places a card face down at table ${e.table}`;
      case "move":
        return `seat ${e.seat} moves its token ${e.steps} table${e.steps === 1 ? "" : "s"}: ${e.from} → ${e.to}`;
      case "payout":
        return `Payout of round ${e.round}: ` + (e.tables.length ? e.tables.map((t) =>
          `table ${t.table} worth ${num(t.value)} (${t.cards.map((c) => `${c.card} of seat ${c.owner}`).join(", ") || "no card"})`).join("; ")
          : "no token on any table") + `; money ${e.money.map(num).join(" · ")}`;
      default:
        return JSON.stringify(e);
    }
  }

  function describeAction(action, phase) {
    if (phase === "chip") return `a chip on table ${action.table}`;
    if (phase === "card") return `${action.card} face down at table ${action.table}`;
    if (phase === "move") return `moves ${action.steps}`;
    return JSON.stringify(action);
  }

  const boundary = (e) => (e.kind === "round_start" ? `Round ${e.round}` : null);

  // ---- Drawing. ----
  const SIZE = 840, MID = SIZE / 2, TW = 150, TH = 138, CW = 18, CH = 24;

  function drawTable(b, t, payout) {
    const angle = -Math.PI / 2 + (2 * Math.PI * t) / b.tables;
    const radius = b.tables > 9 ? 322 : 300;
    const cx = MID + radius * Math.cos(angle), cy = MID + radius * Math.sin(angle);
    const left = cx - TW / 2, top = cy - TH / 2;
    const paid = payout ? payout.tables.find((p) => p.table === t) : null;
    const recent = (b.recent.chip && b.recent.chip.table === t) || (b.recent.card && b.recent.card.table === t) ||
      (b.recent.move && b.recent.move.to === t);
    const g = s("g", { class: `table${paid ? " paid" : ""}${recent ? " recent" : ""}`, "data-table": t });
    g.append(s("rect", { x: left, y: top, width: TW, height: TH, rx: 16, class: "felt" }));
    g.append(s("text", { x: left + 10, y: top + 22, class: "table-name" }, `T${t}`));
    g.append(s("text", { x: left + TW - 10, y: top + 22, "text-anchor": "end", class: "chips", "data-chips": b.tableChips[t] },
      `${b.tableChips[t]} chips`));
    // Tokens.
    const here = [];
    b.tokens.forEach((table, seat) => { if (table === t) here.push(seat); });
    here.forEach((seat, k) => {
      const x = left + 18 + k * 24, y = top + 42;
      const moved = b.recent.move && b.recent.move.seat === seat;
      g.append(s("circle", { cx: x, cy: y, r: 11, fill: seatColour(seat), class: `token${moved ? " moved" : ""}`, "data-seat": seat }));
      g.append(s("text", { x, y: y + 5, "text-anchor": "middle", class: "token-label" }, String(seat)));
    });
    // Cards placed this round (or, at a payout, in the round it paid).
    let k = 0;
    (b.recent.paidCards || b.cards).forEach((c, index) => {
      if (c.table !== t) return;
      const x = left + 8 + (k % 7) * (CW + 2), y = top + 60 + Math.floor(k / 7) * (CH + 3);
      k += 1;
      const known = c.card !== null;
      const isNew = !b.recent.paidCards && b.recent.card && b.recent.card.index === index;
      const cls = `vcard${c.revealed ? " revealed" : known ? " known" : " hidden"}${isNew ? " new" : ""}`;
      const cardG = s("g", { class: cls, "data-owner": c.owner, "data-card": c.card || "hidden" },
        s("title", {}, `seat ${c.owner}: ${c.revealed ? `${c.card}, revealed` : known ? `${c.card}, face down` : "face down"}`));
      cardG.append(s("rect", { x, y, width: CW, height: CH, rx: 3, stroke: seatColour(c.owner) }));
      cardG.append(s("text", { x: x + CW / 2, y: y + 17, "text-anchor": "middle" }, known ? LETTER[c.card] || "?" : "?"));
      g.append(cardG);
    });
    if (paid) {
      g.append(s("text", { x: cx, y: top + TH - 8, "text-anchor": "middle", class: "payout-value" }, `worth ${num(paid.value)}`));
    }
    return g;
  }

  function drawCentre(b, ctx) {
    const g = s("g", { class: "centre" });
    const paid = b.recent.payout;
    g.append(s("text", { x: MID, y: MID - 64, "text-anchor": "middle", class: "round" },
      paid ? `Payout of round ${paid}` : b.round ? `Round ${b.round}` : "Before round 1"));
    if (paid && b.round > paid) g.append(s("text", { x: MID, y: MID - 34, "text-anchor": "middle", class: "sub" }, `then round ${b.round} begins: chips of ${b.chipValue}`));
    else if (b.chipValue) g.append(s("text", { x: MID, y: MID - 34, "text-anchor": "middle", class: "sub" }, `chips of ${b.chipValue}`));
    if (b.order.length) {
      g.append(s("text", { x: MID, y: MID - 6, "text-anchor": "middle", class: "sub" }, "playing order"));
      const w = b.order.length * 30;
      b.order.forEach((seat, k) => {
        const x = MID - w / 2 + 15 + k * 30;
        g.append(s("circle", { cx: x, cy: MID + 16, r: 12, fill: seatColour(seat), class: b.moved[seat] ? "moved-seat" : "" }));
        g.append(s("text", { x, y: MID + 21, "text-anchor": "middle", class: "token-label" }, String(seat)));
      });
    }
    g.append(s("text", { x: MID, y: MID + 60, "text-anchor": "middle", class: "legend" }, "R raise · B bluff · T trap · ? face down"));
    if (ctx.seat !== null) g.append(s("text", { x: MID, y: MID + 82, "text-anchor": "middle", class: "legend" }, `as seat ${ctx.seat} saw it`));
    return g;
  }

  function payoutView(e, players, current) {
    return h("div", { class: `payout${current ? " current" : ""}`, "data-round": e.round },
      h("div", { class: "payout-title" }, `Payout of round ${e.round}${current ? " (this step)" : ""}`),
      e.tables.length ? e.tables.map((t) => h("div", { class: "payout-table", "data-table": t.table },
        h("b", {}, `T${t.table}`), ` ${t.chips} chips, worth ${num(t.value)} · tokens `,
        t.tokens.map((seat) => seatChip(seat, players)),
        h("div", { class: "revealed-cards" }, "revealed: ", t.cards.length ? t.cards.map((c) =>
          h("span", { class: `revealed-card ${c.card}`, "data-owner": c.owner }, seatChip(c.owner, players), ` ${c.card}`)) : "no card"),
        h("div", { class: "paid-line" }, "paid: ", t.paid.some((m) => m) ? t.paid.map((m, seat) =>
          (m ? h("span", { class: "paid" }, seatChip(seat, players), ` +${num(m)}`) : null)) : "nothing"))) :
        h("div", { class: "note" }, "no token stood on any table"));
  }

  function draw(b, root, ctx) {
    const svg = s("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, class: "vabanque-board", role: "img", "aria-label": "the tables" });
    const payout = b.recent.payout ? b.payouts[b.payouts.length - 1] : null;
    svg.append(drawCentre(b, ctx));
    for (let t = 0; t < b.tables; t++) svg.append(drawTable(b, t, payout));
    const hands = b.hands.map((hand, seat) => (hand ? h("div", { class: "hand", "data-seat": seat },
      seatTag(seat, ctx.players), ": ", hand.length ? hand.map((c) => h("span", { class: `vhand ${c}` }, c)) : "all placed") : null));
    const history = b.payouts.slice().reverse().map((e, k) => payoutView(e, ctx.players, k === 0 && payout !== null));
    put(root, h("div", { class: "vabanque" },
      h("div", { class: "board-svg" }, svg),
      h("div", { class: "below" },
        h("section", {}, h("h3", {}, ctx.seat === null ? "Cards in hand" : "Your cards in hand"), hands),
        h("section", { class: "payouts" }, h("h3", {}, "Payouts: what was revealed"),
          history.length ? history : h("p", { class: "note" }, "no payout yet")))));
  }

  return { title: "Vabanque", init, beginStep, apply, draw, describe, describeAction, boundary, cardName };
})();
