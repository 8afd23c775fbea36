// The floor of the whole-process lint figures: a node process that only reads and JSON.parses the file.
'use strict';
const text = require('node:fs').readFileSync(process.argv[2], 'utf8');
try {
  JSON.parse(text);
} catch {
  // A broken file: the parse that fails is the floor.
}
