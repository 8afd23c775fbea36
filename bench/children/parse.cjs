// The floor of the whole-process lint figures: a node process that only reads and JSON.parses each file
// named (for a broken file, the parse that fails). With `--under DIR SUFFIX` it first finds the files, as
// obs finds those of a glob: every file under DIR whose name ends with SUFFIX, sorted (the least any
// search does: one listing of the folder tree, no pattern matched).
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const files =
  args[0] === '--under'
    ? readdirSync(args[1], { recursive: true })
        .filter((f) => f.endsWith(args[2]))
        .sort()
        .map((f) => join(args[1], f))
    : args;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  try {
    JSON.parse(text);
  } catch {
    // A broken file: the parse that fails is the floor.
  }
}
