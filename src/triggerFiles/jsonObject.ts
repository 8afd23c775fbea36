// A burn alert or definitions file's text as the one JSON object it should hold: what pull, plan, drift and
// Compare with Service read such a file with. No vscode import.

/** A file's text as one JSON object (a byte order mark allowed), or undefined when it is not one. */
export function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
