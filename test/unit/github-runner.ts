// How the GitHub Actions runner reads a step's output (actions/runner: ActionCommandManager.TryProcessCommand,
// ActionCommand.TryParseV2 and TryParse), for the tests of `--format github` and of text output in a step: each
// line is a command when, leading white space trimmed, it starts with `::` and the name up to the next `::` is a
// registered command (in any case); else, when its first `##[` is followed by such a name, an old-style one.
// After `::stop-commands::TOKEN` only `::TOKEN::` is read, and it resumes.

export interface RunnerCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
}

/** The runner's registered commands (ActionCommandManager's extensions), compared ignoring case. */
const REGISTERED = [
  'error',
  'warning',
  'notice',
  'debug',
  'group',
  'endgroup',
  'add-mask',
  'set-output',
  'set-env',
  'save-state',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'echo',
  'stop-commands',
];

const unescape = (text: string, pairs: readonly [string, string][]) =>
  pairs.reduce((t, [escaped, raw]) => t.split(escaped).join(raw), text);
const DATA: [string, string][] = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
];
const PROPERTY: [string, string][] = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
];

function parseV2(line: string, known: ReadonlySet<string>): RunnerCommand | undefined {
  // .NET's TrimStart trims U+0085 too; JavaScript's trims U+FEFF, which .NET keeps: both are trimmed here.
  const text = line.replace(/^[\s\u0085]+/u, '');
  if (!text.startsWith('::')) return undefined;
  const end = text.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = text.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (!known.has(command.toLowerCase())) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0)
    for (const p of info
      .slice(space + 1)
      .trim()
      .split(',')
      .filter((s) => s !== '')) {
      const at = p.indexOf('=');
      if (at > 0 && at < p.length - 1) properties[p.slice(0, at)] = unescape(p.slice(at + 1), PROPERTY);
    }
  return { command, properties, data: unescape(text.slice(end + 2), DATA) };
}

/** An old-style `##[name ...]data` anywhere in a line. */
function parseV1(line: string, known: ReadonlySet<string>): RunnerCommand | undefined {
  const at = line.indexOf('##[');
  const close = at < 0 ? -1 : line.indexOf(']', at);
  if (close < 0) return undefined;
  const info = line.slice(at + 3, close);
  const command = info.split(' ')[0] ?? '';
  return known.has(command.toLowerCase()) ? { command, properties: {}, data: line.slice(close + 1) } : undefined;
}

/** The commands the runner would take from a step's output, line by line as it splits it (CR, LF, CRLF). */
export function runnerCommands(output: string): RunnerCommand[] {
  const known = new Set(REGISTERED);
  let stopToken: string | undefined;
  const taken: RunnerCommand[] = [];
  for (const line of output.split(/\r\n|\r|\n/)) {
    const c = parseV2(line, known) ?? parseV1(line, known);
    if (c === undefined) continue;
    const name = c.command.toLowerCase();
    if (stopToken !== undefined) {
      if (name !== stopToken) continue;
      known.delete(stopToken);
      stopToken = undefined;
    } else if (name === 'stop-commands') {
      stopToken = c.data.toLowerCase();
      known.add(stopToken);
    }
    taken.push(c);
  }
  return taken;
}
