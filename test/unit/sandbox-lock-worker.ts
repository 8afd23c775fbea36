// A child process of sandbox-lock.test.ts: takes a data file's lock when told to, answers whether it won,
// and lets it go when told to. Two of these race for one stale lock.
import { lockDataFile, type DataFileLock } from '../../src/sandbox/dataFileLock';

type Command = { kind: 'take'; file: string } | { kind: 'release' } | { kind: 'exit' };
type Work = Exclude<Command, { kind: 'exit' }>;

let held: DataFileLock | undefined;

process.on('message', (command: Command) => {
  if (command.kind === 'exit') {
    process.disconnect();
    return;
  }
  void run(command).then((answer) => process.send?.(answer));
});

async function run(command: Work): Promise<unknown> {
  switch (command.kind) {
    case 'take':
      try {
        held = await lockDataFile(command.file);
        return { won: true };
      } catch (err) {
        return { won: false, reason: (err as Error).message };
      }
    case 'release':
      await held?.release();
      held = undefined;
      return { released: true };
  }
}
