// Sandbox entry point; the server lives in src/sandbox/.
process.stderr.write('sandbox: not built yet\n');
process.exitCode = 2;
