#!/usr/bin/env node
// An external bot for `meeple tournament` in Node (docs/ARENA.md): answers each decision with
// a legal index drawn from a small seeded generator, so it plays the same games every time.
//
//   meeple tournament classic --bots "standard,cmd:node examples/arena/random_bot.js"
const readline = require("readline");

let state = 1;
function next(n) {
  // A linear congruential generator: deterministic, enough for a demonstration.
  state = (state * 1103515245 + 12345) % 2147483648;
  return state % n;
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "start") {
    state = Number(BigInt(msg.seed) % 2147483648n) || 1;
  } else if (msg.type === "decision") {
    process.stdout.write(`${next(msg.legal.length)}\n`);
  } else if (msg.type === "end") {
    rl.close();
  }
});
