// What the parts of the extension share (contract in team/EXT-CONTRACT.md), and the helpers that show
// operations' progress and failures the same way everywhere.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import type { KeyRegistry } from '../tree/keyRegistry';
import { errorText, isAlreadyReported, isCancellation, progressFailureText } from './errors';

export { isCancellation };

export interface Services {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  connections: ConnectionManager;
  keyRegistry: KeyRegistry;
  refreshTree(): void;
  /** Runs an operation with progress + cancellation; errors are logged and shown with "Show Logs". */
  runWithProgress<T>(title: string, op: (signal: AbortSignal) => Promise<T>): Promise<T | undefined>;
}

/** Logs a failure and shows it naming the operation ("Could not <operation>: ..."), with a "Show Logs" button. */
export async function reportError(log: vscode.LogOutputChannel, operation: string, err: unknown): Promise<void> {
  await showFailure(log, `Could not ${operation}: ${errorText(err)}`, operation, err);
}

async function showFailure(log: vscode.LogOutputChannel, text: string, operation: string, err: unknown): Promise<void> {
  if (isAlreadyReported(err)) {
    // Cancelled, or "no connection", which requireActive() has already said with its own buttons.
    log.info(`${operation}: ${isCancellation(err) ? 'cancelled' : errorText(err)}`);
    return;
  }
  log.error(text);
  const choice = await vscode.window.showErrorMessage(text, 'Show Logs');
  if (choice === 'Show Logs') log.show(true);
}

export function runWithProgress<T>(
  log: vscode.LogOutputChannel,
  title: string,
  op: (signal: AbortSignal) => Promise<T>,
): Promise<T | undefined> {
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await op(controller.signal);
      } catch (err) {
        // The title is a gerund ("Running saved query q1..."): "Running saved query q1 failed: ...".
        void showFailure(log, progressFailureText(title, err), title, err);
        return undefined;
      } finally {
        sub.dispose();
      }
    }),
  );
}
