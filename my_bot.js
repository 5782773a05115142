#!/usr/bin/env node
// A minimal Vabanque bot: random chips and cards, moves to the richest table in reach.
"use strict";
const readline = require("readline");

let state = 1; // a tiny deterministic PRNG (xorshift32), reseeded at every match_start
function random() {
  state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
  return (state >>> 0) / 4294967296;
}
const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    send({ type: "hello", name: "my-js-bot", protocol: 1 });
  } else if (msg.type === "match_start") {
    // The seed is a u64: JSON.parse would round it, so take its digits from the raw line.
    state = Number(BigInt(/"seed"\s*:\s*(\d+)/.exec(line)[1]) % 4294967291n) || 1;
  } else if (msg.type === "request") {
    const { view, legal } = msg;
    let action = legal[Math.floor(random() * legal.length)];
    if (msg.phase === "move") {
      const here = view.tokens[view.you];
      const chips = (a) => view.table_chips[(here + a.steps) % view.tables];
      action = legal.reduce((best, a) => (chips(a) > chips(best) ? a : best));
    }
    send({ type: "action", id: msg.id, action });
  } else if (msg.type === "goodbye") {
    input.close();
  }
});
input.on("close", () => process.exit(0));
