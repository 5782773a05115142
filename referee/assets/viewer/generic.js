"use strict";
// The board of a game that has no module of its own: the start record and the events so far, as
// JSON. A game's module replaces it (Referee.games[name]).
Referee.generic = (() => {
  const { h, put } = Referee.dom;
  return {
    init(ctx) {
      return { start: ctx.seat === null ? ctx.start.truth : ctx.start.views[ctx.seat], events: [] };
    },
    apply(board, r) {
      if (r.type === "event") board.events.push(r.event);
    },
    draw(board, root) {
      put(root, h("div", { class: "generic" },
        h("h3", {}, "start"), h("pre", {}, JSON.stringify(board.start, null, 1)),
        h("h3", {}, `events so far (${board.events.length}, the last 50)`),
        h("pre", {}, board.events.slice(-50).map((e) => JSON.stringify(e)).join("\n"))));
    },
  };
})();
