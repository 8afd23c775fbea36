// obs-lint entry point; the linter CLI lives in src/lint/cli.ts.
process.stderr.write('obs-lint: not built yet\n');
process.exitCode = 2;
