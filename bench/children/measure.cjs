// Preloaded (node -r) into a measured process: at exit it appends its CPU time (user + system, all
// threads, from the start of the process) and peak resident memory to the file named by OBS_BENCH_OUT.
'use strict';
const { appendFileSync } = require('node:fs');
process.on('exit', (code) => {
  const cpu = process.cpuUsage();
  appendFileSync(process.env.OBS_BENCH_OUT, `${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, maxRssKb: process.resourceUsage().maxRSS, code })}\n`);
});
