"use strict";
// Playing cards for the card games' boards: a code on the wire ("QS", "TD", "10S", "JK") drawn as
// a small card with its rank and suit symbol.
Referee.cards = (() => {
  const { h } = Referee.dom;
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

  /** {rank, suit, joker} of a card code; rank "10" for both "T" and "10". */
  function parse(code) {
    if (code === "JK") return { rank: "JK", suit: "", joker: true };
    const m = /^(10|[2-9TJQKA])([CDHS])$/.exec(String(code));
    if (!m) return { rank: String(code), suit: "", joker: false };
    return { rank: m[1] === "T" ? "10" : m[1], suit: m[2], joker: false };
  }

  /** A card face: classes are added to it (e.g. "from-hand"). */
  function face(code, classes) {
    const c = parse(code);
    const colour = c.joker ? "joker" : c.suit === "D" || c.suit === "H" ? "red" : "black";
    return h("span", { class: `card ${colour} ${classes || ""}`.trim(), "data-card": code, title: code },
      h("span", { class: "rank" }, c.joker ? "★" : c.rank),
      h("span", { class: "suit" }, c.joker ? "JK" : SUITS[c.suit] || "?"));
  }

  /** A face-down card. */
  const back = (classes) => h("span", { class: `card back ${classes || ""}`.trim(), title: "face down" });

  /** A row of card faces. */
  const row = (codes, classOf) => h("span", { class: "cards" },
    codes.map((code, i) => face(code, classOf ? classOf(code, i) : "")));

  /** A suit's symbol and name: "♥ hearts". */
  const suitName = (letter) => `${SUITS[letter] || letter} ${SUIT_NAMES[letter] || ""}`.trim();

  return { parse, face, back, row, suitName, SUITS };
})();
