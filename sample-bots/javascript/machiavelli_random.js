#!/usr/bin/env node
// A Machiavelli bot that lays the sets and runs it can form from its own hand, else draws (node
// 20, no packages).
//
// Machiavelli lists no legal actions: a play is the whole new table, which the bot builds itself.
// This one keeps the table's melds as they are and adds melds made of its own cards, in a random
// order (a stronger bot rearranges the table: sample-bots/python/machiavelli_rearranger.py).
//
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input; the
// bot answers one JSON object per line on standard output. Standard output carries protocol
// lines only: log to standard error (console.error).
//
// Run it with: referee match --game machiavelli --bot a=sample-bots/javascript/machiavelli_random.js ...
"use strict";

const readline = require("readline");

const NAME = "js-random";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]; // ranks 1 to 13
const SUITS = ["C", "D", "H", "S"];
const JOKER = "JK";

// mulberry32: a tiny deterministic 32-bit PRNG returning floats in [0, 1).
function mulberry32(a) {
  return function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The match seed is a u64 and may exceed 2^53, which JSON.parse would round. So read its digits
// from the raw line and fold its two 32-bit halves together with BigInt: nothing is lost.
function seedFromLine(line) {
  const digits = /"seed"\s*:\s*(\d+)/.exec(line);
  const seed = BigInt(digits ? digits[1] : "0");
  return Number((seed ^ (seed >> 32n)) & 0xffffffffn);
}

function send(message) {
  // One line per message. On Linux, node writes to a pipe synchronously: nothing waits in a buffer.
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The rank of a card such as "10S": 1 (the ace) to 13 (the king). Its suit is its last letter.
function rank(card) {
  return RANKS.indexOf(card.slice(0, -1)) + 1;
}

// Whether `cards` is a valid meld: a set (3 or 4 cards of one rank, all suits different) or a run
// (3 to 13 cards of one suit in consecutive ranks, the ace low as in A-2-3 or high as in Q-K-A,
// never both). A joker stands for any card: at most `maxJokers` in a meld, and never a meld of
// jokers only.
function isMeld(cards, maxJokers) {
  const naturals = cards.filter((c) => c !== JOKER);
  const jokers = cards.length - naturals.length;
  if (cards.length < 3 || naturals.length === 0 || jokers > maxJokers) return false;
  const suits = new Set(naturals.map((c) => c.slice(-1)));
  const ranks = new Set(naturals.map(rank));
  if (cards.length <= 4 && ranks.size === 1 && suits.size === naturals.length) {
    return true; // a set; its jokers stand for the missing suits
  }
  if (suits.size !== 1 || cards.length > 13) return false;
  for (const ace of [1, 14]) { // the ace as the low end, then as the high end
    const values = new Set(naturals.map((c) => (rank(c) === 1 ? ace : rank(c))));
    // No rank twice, and the jokers can fill the gaps: the ranks span at most cards.length.
    if (values.size === naturals.length &&
        Math.max(...values) - Math.min(...values) < cards.length) {
      return true;
    }
  }
  return false;
}

// Melds made of cards of `hand`: each set of one rank, each longest run of one suit, then pairs
// that a joker makes a meld. They may share cards: `choose` lays what it can.
function meldsIn(hand, maxJokers) {
  const melds = [];
  for (const r of RANKS) { // sets: one card of each suit that the hand holds in rank r
    const sameRank = SUITS.map((s) => r + s).filter((c) => hand.includes(c));
    if (sameRank.length >= 3) melds.push(sameRank);
  }
  for (const s of SUITS) { // runs: consecutive ranks of suit s, with the ace again after the king
    let streak = [];
    for (const r of [...RANKS, "A"]) {
      if (hand.includes(r + s) && streak.length < 13) { // A..K and A again would be 14 cards
        streak.push(r + s);
      } else { // the streak ends here
        if (streak.length >= 3) melds.push(streak);
        streak = hand.includes(r + s) ? [r + s] : [];
      }
    }
    if (streak.length >= 3) melds.push(streak);
  }
  if (hand.includes(JOKER) && maxJokers >= 1) { // a joker completes two cards into a meld
    const naturals = [...new Set(hand)].filter((c) => c !== JOKER).sort();
    naturals.forEach((a, i) => {
      for (const b of naturals.slice(i + 1)) {
        if (isMeld([a, b, JOKER], maxJokers)) melds.push([a, b, JOKER]);
      }
    });
  }
  return melds;
}

// How many times `card` is in `cards`.
function count(cards, card) {
  return cards.filter((c) => c === card).length;
}

// Picks the action: {play: the new table} or {draw: true}. `view` holds everything the seat may
// know: its sorted `hand`, the `table` (a list of melds), the size of the stock and of every
// hand, the points so far. A play must hold every card of the table, at least one card from the
// hand, and nothing else, in valid melds.
function choose(view, maxJokers) {
  const hand = [...view.hand];
  const melds = meldsIn(hand, maxJokers);
  for (let i = melds.length - 1; i > 0; i--) { // any order (a Fisher-Yates shuffle)...
    const j = Math.floor(random() * (i + 1));
    [melds[i], melds[j]] = [melds[j], melds[i]];
  }
  // ...but melds without a joker first, to keep the jokers for later (sort is stable).
  melds.sort((a, b) => a.includes(JOKER) - b.includes(JOKER));
  const laid = [];
  for (const meld of melds) {
    // Lay it if its cards are still in the hand (an earlier meld may have used them).
    if (meld.every((c) => count(hand, c) >= count(meld, c)) && isMeld(meld, maxJokers)) {
      for (const c of meld) hand.splice(hand.indexOf(c), 1);
      laid.push(meld);
    }
  }
  if (laid.length > 0) return { play: [...view.table, ...laid] }; // the table's melds, plus ours
  return { draw: true };
}

let random = mulberry32(0); // replaced at every match_start: the bot is deterministic
let maxJokers = 1; // jokers allowed in one meld: the option jokers_per_meld, 1 unless set

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello": // the first message: say who we are and which protocol we speak
      send({ type: "hello", name: NAME, protocol: 1 });
      break;
    case "match_start": // a new match: seed our random choices, read the options
      random = mulberry32(seedFromLine(line));
      maxJokers = (message.options || {}).jokers_per_meld || 1;
      break;
    case "request": // our turn: answer with an action, echoing the request's id
      send({ type: "action", id: message.id, action: choose(message.view, maxJokers) });
      break;
    case "goodbye": // no more matches: stop reading (the "close" handler below exits)
      input.close();
      break;
    // Anything else (event, error, match_end, or a type added later) is ignored.
  }
});

// Reading stopped, after a goodbye or at the end of standard input (EOF): exit.
input.on("close", () => process.exit(0));
