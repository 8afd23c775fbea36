// How the GitHub Actions runner reads a step's output (actions/runner: ActionCommand.TryParseV2 and TryParse),
// for the tests of `--format github`: each line is a command when, leading spaces trimmed, it starts with `::`
// and the name up to the next `::` is a known command; else, when it holds `##[name]` anywhere, an old-style one.

export interface RunnerCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
}

const KNOWN = new Set(['error', 'warning', 'notice', 'debug', 'group', 'endgroup', 'add-mask', 'stop-commands']);

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

function parseV2(line: string): RunnerCommand | undefined {
  const text = line.trimStart();
  if (!text.startsWith('::')) return undefined;
  const end = text.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = text.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (!KNOWN.has(command)) return undefined;
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
function parseV1(line: string): RunnerCommand | undefined {
  const at = line.indexOf('##[');
  const close = at < 0 ? -1 : line.indexOf(']', at);
  if (close < 0) return undefined;
  const info = line.slice(at + 3, close);
  const command = info.split(' ')[0] ?? '';
  return KNOWN.has(command) ? { command, properties: {}, data: line.slice(close + 1) } : undefined;
}

/** The commands the runner would take from a step's output, line by line as it splits it (CR, LF, CRLF). */
export function runnerCommands(output: string): RunnerCommand[] {
  return output
    .split(/\r\n|\r|\n/)
    .map((line) => parseV2(line) ?? parseV1(line))
    .filter((c): c is RunnerCommand => c !== undefined);
}
