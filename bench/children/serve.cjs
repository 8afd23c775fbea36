// A server child of bench/run.ts. `sandbox <root>`: the sandbox of a build (dist/sandbox-host.js) with a
// 10,000-column dataset. `static <file>`: the floor, a plain node:http server answering every request
// with the bytes of a file. Prints one JSON line ({ baseUrl, configKey }) when listening; exits when
// stdin closes.
'use strict';
const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

async function main() {
  const [mode, arg] = process.argv.slice(2);
  let info;
  if (mode === 'sandbox') {
    const { startSandbox, addWideDataset } = require(join(arg, 'dist', 'sandbox-host.js'));
    const sb = await startSandbox({ rateLimit: 1_000_000_000 });
    addWideDataset(sb.state, 'bench-10k', 10_000);
    info = { baseUrl: sb.info.baseUrl, configKey: sb.info.configKey };
  } else {
    const body = readFileSync(arg);
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
        res.end(body);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    info = { baseUrl: `http://127.0.0.1:${server.address().port}`, configKey: 'none' };
  }
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}
void main();
