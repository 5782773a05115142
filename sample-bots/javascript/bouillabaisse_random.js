#!/usr/bin/env node
// A La Bouillabaisse bot that plays uniformly at random among the legal cards (node 20, no
// packages).
//
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input; the
// bot answers one JSON object per line on standard output. Standard output carries protocol
// lines only: log to standard error (console.error).
//
// Run it with: referee match --game bouillabaisse --bot a=sample-bots/javascript/bouillabaisse_random.js ...
"use strict";

const readline = require("readline");

const NAME = "js-random";

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

let random = mulberry32(0); // replaced at every match_start: the bot is deterministic

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello": // the first message: say who we are and which protocol we speak
      send({ type: "hello", name: NAME, protocol: 1 });
      break;
    case "match_start": // a new match: seed our random choices with its seed
      random = mulberry32(seedFromLine(line));
      break;
    case "request": { // our turn: play a card, echoing the request's id
      // `legal` lists every legal card as an action such as {"card": "QS"}; the view (hand,
      // trick so far, chosen cards, scores...) is ignored.
      const legal = message.legal;
      const action = legal[Math.floor(random() * legal.length)];
      send({ type: "action", id: message.id, action: action });
      break;
    }
    case "goodbye": // no more matches: stop reading (the "close" handler below exits)
      input.close();
      break;
    // Anything else (event, error, match_end, or a type added later) is ignored.
  }
});

// Reading stopped, after a goodbye or at the end of standard input (EOF): exit.
input.on("close", () => process.exit(0));
