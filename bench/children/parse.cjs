// The floor of the whole-process lint figures: a node process that only reads and JSON.parses each file
// named (for a broken file, the parse that fails).
'use strict';
const { readFileSync } = require('node:fs');
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  try {
    JSON.parse(text);
  } catch {
    // A broken file: the parse that fails is the floor.
  }
}
