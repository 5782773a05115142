// A self-test of machiavelli_random.js: `node --test` (from sample-bots/javascript), node 20, no
// packages. It plays the bot through its standard input and output, as the referee would, and
// checks every table it sends with a validator written here another way: it tries every card a
// joker may stand for, then checks the plain set or run. (The Python tests in
// sample-bots/python/test_machiavelli.py also play this bot in whole games.)
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const BOT = path.join(__dirname, "machiavelli_random.js");
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["C", "D", "H", "S"];
const DECK = SUITS.flatMap((s) => RANKS.map((r) => r + s));

// A meld without jokers, from the definitions.
function plainMeld(cards) {
  const ranks = cards.map((c) => RANKS.indexOf(c.slice(0, -1)) + 1);
  const suits = cards.map((c) => c.slice(-1));
  if ((cards.length === 3 || cards.length === 4) && new Set(ranks).size === 1 &&
      new Set(suits).size === suits.length) {
    return true;
  }
  if (cards.length < 3 || cards.length > 13 || new Set(suits).size !== 1) return false;
  return [1, 14].some((ace) => {
    const values = ranks.map((r) => (r === 1 ? ace : r)).sort((a, b) => a - b);
    return values.every((v, i) => v === values[0] + i);
  });
}

// A meld with jokers is valid if some card for each joker makes it a plain meld.
function validMeld(cards, maxJokers) {
  const naturals = cards.filter((c) => c !== "JK");
  const jokers = cards.length - naturals.length;
  if (jokers > maxJokers || naturals.length === 0) return false;
  const first = naturals[0];
  const standIns = DECK.filter((c) => c.slice(0, -1) === first.slice(0, -1) ||
                                      c.slice(-1) === first.slice(-1));
  const tryAll = (chosen) => chosen.length === jokers
    ? plainMeld([...naturals, ...chosen])
    : standIns.some((c) => tryAll([...chosen, c]));
  return tryAll([]);
}

function tally(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return counts;
}

// null if `table` is a valid play from `old` with `hand`, else what is wrong.
function playError(old, hand, table, maxJokers) {
  const now = tally(table.flat());
  const before = tally(old.flat());
  const mine = tally(hand);
  let added = 0;
  for (const [card, n] of before) {
    if ((now.get(card) || 0) < n) return `${card} is missing`;
  }
  for (const [card, n] of now) {
    const extra = n - (before.get(card) || 0);
    if (extra > (mine.get(card) || 0)) return `${card} is not in the hand`;
    added += extra;
  }
  if (added === 0) return "no card from the hand";
  const bad = table.find((meld) => !validMeld(meld, maxJokers));
  return bad ? `not a meld: ${bad}` : null;
}

// A turn's view as the engine sends it (docs/protocol-machiavelli.md).
function view(table, hand) {
  return { hand_number: 1, hands: 1, dealer: 1, you: 0, players: 3, hand, table, stock: 40,
           hand_sizes: [hand.length, 13, 13], skip_available: true, totals: [0, 0, 0],
           revealed: [[], [], []] };
}

// Runs the bot over the messages; returns its replies, parsed. A seed 0 is written as a seed
// above 2^53, which only the raw line can hold (JSON.stringify has no u64).
function converse(messages) {
  const input = messages.map((m) => JSON.stringify(m) + "\n").join("")
    .replace(/"seed":0\b/g, '"seed":18446744073709551557');
  const done = spawnSync(process.execPath, [BOT], { input, encoding: "utf8", timeout: 30000 });
  assert.strictEqual(done.status, 0, done.stderr);
  return done.stdout.trim().split("\n").map((line) => JSON.parse(line));
}

const OPTIONS = { cards: 13, hands: 1, jokers: false, jokers_per_meld: 1 };
const HELLO = { type: "hello", protocol: 1, game: "machiavelli", options: OPTIONS,
                limits: { startup_ms: 10000, decision_ms: 1000 } };

function matchStart(options) {
  return { type: "match_start", match_id: "m", seat: 0, players: ["me", "b", "c"], seed: 0,
           options };
}

test("the validator knows the design's cases", () => {
  assert.ok(validMeld(["QH", "QS", "QD"], 1));
  assert.ok(!validMeld(["7H", "7H", "7S"], 1));
  assert.ok(!validMeld(["4S", "5S", "7S"], 1));
  assert.ok(validMeld(["4S", "5S", "JK", "7S"], 1));
  assert.ok(!validMeld(["KS", "AS", "2S"], 1));
  assert.ok(validMeld(["QS", "KS", "AS"], 1));
  assert.ok(!validMeld(["JK", "JK", "4H"], 1));
  assert.ok(validMeld(["JK", "JK", "4H"], 2));
  assert.ok(!validMeld(["JK", "JK", "JK"], 3));
  assert.ok(!validMeld(["5H", "5D", "6H"], 1));
  assert.ok(!validMeld([...RANKS.map((r) => r + "C"), "AC"], 1));
});

test("hello, a match, events, an error, unknown messages, goodbye", () => {
  const lines = [
    HELLO,
    matchStart(OPTIONS),
    { type: "event", event: { kind: "hand_start", hand_number: 1, dealer: 2, first: 0 } },
    { type: "event", event: { kind: "some_new_kind" } },
    { type: "request", id: 0, phase: "turn",
      view: view([["QD", "QH", "QS"]], ["2C", "3C", "4C", "5D", "5H", "5S", "9D"]),
      time_left_ms: 1000 },
    { type: "error", id: 0, fault: "illegal_action", message: "a test" },
    { type: "a_new_type" },
    { type: "request", id: 1, phase: "turn", view: view([], ["2D", "9S"]), time_left_ms: 1000 },
    { type: "match_end", match_id: "m", scores: [0, 1, 2], ranks: [1, 2, 3] },
    { type: "goodbye" },
  ];
  const replies = converse(lines);
  assert.deepStrictEqual(replies[0], { type: "hello", name: "js-random", protocol: 1 });
  assert.deepStrictEqual(replies.slice(1).map((r) => [r.type, r.id]),
                         [["action", 0], ["action", 1]]);
  const play = replies[1].action.play;
  assert.strictEqual(playError([["QD", "QH", "QS"]], lines[4].view.hand, play, 1), null);
  assert.deepStrictEqual(play[0], ["QD", "QH", "QS"]);
  assert.strictEqual(play.flat().length, 9);
  assert.deepStrictEqual(replies[2].action, { draw: true });
});

test("every table sent is a valid play, in random positions", () => {
  let seed = 12345;
  const random = () => { // a small LCG: the positions are the same on every run
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  for (const [jokers, maxJokers] of [[false, 1], [true, 1], [true, 2]]) {
    const requests = [];
    for (let id = 0; id < 300; id++) {
      const pool = [...DECK, ...DECK, ...(jokers ? ["JK", "JK", "JK", "JK"] : [])];
      for (let i = pool.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [pool[i], pool[j]] = [pool[j], pool[i]];
      }
      const table = [];
      for (let k = Math.floor(random() * 5); k > 0; k--) { // a few runs of hearts or sets of 7s
        const suit = pick(SUITS);
        const meld = random() < 0.5 ? [3, 4, 5].map((r) => RANKS[r] + suit)
          : SUITS.filter((s) => s !== suit).map((s) => "7" + s);
        table.push(meld);
      }
      // Two copies of each card at most, in the table and the hand together.
      const used = tally(table.flat());
      const hand = pool.filter((c) => {
        used.set(c, (used.get(c) || 0) + 1);
        return used.get(c) <= 2;
      }).slice(0, 3 + Math.floor(random() * 16)).sort();
      const fits = [...tally([...table.flat(), ...hand])].every(([c, n]) => c === "JK" || n <= 2);
      if (fits) requests.push({ type: "request", id, phase: "turn", view: view(table, hand),
                                time_left_ms: 1000 });
    }
    const replies = converse([HELLO, matchStart({ ...OPTIONS, jokers, jokers_per_meld: maxJokers }),
                              ...requests, { type: "goodbye" }]);
    assert.strictEqual(replies.length, requests.length + 1);
    let plays = 0;
    requests.forEach((request, i) => {
      const { action, id } = replies[i + 1];
      assert.strictEqual(id, request.id);
      if (action.play) {
        plays++;
        const { table, hand } = request.view;
        assert.strictEqual(playError(table, hand, action.play, maxJokers), null,
                           JSON.stringify({ table, hand, action }));
      } else {
        assert.deepStrictEqual(action, { draw: true });
      }
    });
    assert.ok(plays > 50, `${plays} plays`);
  }
});
