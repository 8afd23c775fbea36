// One log channel for the whole extension ("Observability"), one named logger per module on it: every
// line says which part of the extension wrote it. No vscode import: the channel is passed in.

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The part of vscode.LogOutputChannel a logger writes to (tests pass a recorder). */
export type LogChannel = Logger;

/** A logger whose lines start with `[name]`. */
export function createLogger(channel: LogChannel, name: string): Logger {
  const prefix = `[${name}] `;
  return {
    debug: (message) => channel.debug(prefix + message),
    info: (message) => channel.info(prefix + message),
    warn: (message) => channel.warn(prefix + message),
    error: (message) => channel.error(prefix + message),
  };
}
