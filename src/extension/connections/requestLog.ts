// One line per request for the "Observability" log. The client's onLog entries carry no headers or
// bodies and a redacted path, so nothing secret reaches the line. No vscode import.
import type { RequestLogEntry } from '../../api/client';

export function formatRequestLog(connectionName: string, e: RequestLogEntry): string {
  const status = e.status !== undefined ? ` ${e.status}` : '';
  const error = e.error !== undefined ? ` ${e.error}` : '';
  const attempt = e.attempt > 1 ? ` (attempt ${e.attempt})` : '';
  const retry = e.retryInMs !== undefined ? `, retrying in ${e.retryInMs} ms` : '';
  return `${connectionName}: ${e.method} ${e.path}${status}${error} ${e.durationMs} ms${attempt}${retry} [${e.operation}]`;
}
