// How every part of the extension tells the user about its work: failures name the operation and offer
// "Show Logs", slow work shows cancellable progress, and every command reports its failures the same way.
import * as vscode from 'vscode';
import { errorText, isAlreadyReported, isCancellation, progressFailureText } from './errors';
import type { Logger } from './logger';

/**
 * Shows an error of something the user started, with "Show Logs": VS Code hides a notification by itself
 * after a few seconds unless it is an error with an action, and the user should read why it was refused.
 */
export async function showErrorUntilRead(
  text: string,
  showLogs: () => unknown = () => vscode.commands.executeCommand('obs.showLogs'),
): Promise<void> {
  const label = vscode.l10n.t('Show Logs');
  if ((await vscode.window.showErrorMessage(text, label)) === label) await showLogs();
}

export class Feedback {
  constructor(
    /** The module's named logger: failures are logged there. */
    readonly log: Logger,
    private readonly showLogs: () => void,
  ) {}

  /** Logs a failure and shows it naming the operation ("Could not <operation>: ..."), with "Show Logs". */
  async reportError(operation: string, err: unknown): Promise<void> {
    await this.showFailure(vscode.l10n.t('Could not {0}: {1}', operation, errorText(err)), operation, err);
  }

  /**
   * Runs an operation with cancellable progress; a failure is logged and shown, and the result is undefined.
   * `report` shows a line under the title (e.g. "Waiting 23 s: ...").
   */
  runWithProgress<T>(
    title: string,
    op: (signal: AbortSignal, report: (message: string) => void) => Promise<T>,
  ): Promise<T | undefined> {
    return Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            return await op(controller.signal, (message) => progress.report({ message }));
          } catch (err) {
            // The title is a gerund ("Running saved query q1..."): "Running saved query q1 failed: ...".
            void this.showFailure(progressFailureText(title, err), title, err);
            return undefined;
          } finally {
            sub.dispose();
          }
        },
      ),
    );
  }

  /** Registers a command whose failures are reported as "Could not <operation>"; it returns what `run` returns. */
  registerCommand(id: string, operation: string, run: (...args: unknown[]) => unknown): vscode.Disposable {
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (err) {
        await this.reportError(operation, err);
        return undefined;
      }
    });
  }

  private async showFailure(text: string, operation: string, err: unknown): Promise<void> {
    if (isAlreadyReported(err)) {
      // Cancelled, or "no connection", which requireActive() has already said with its own buttons.
      this.log.info(`${operation}: ${isCancellation(err) ? 'cancelled' : errorText(err)}`);
      return;
    }
    this.log.error(text);
    await showErrorUntilRead(text, this.showLogs);
  }

  /** A refusal of what the user asked for (a setting's folder, a dataset the form cannot edit): logged, and shown until read. */
  async reportRefusal(text: string): Promise<void> {
    this.log.error(text);
    await showErrorUntilRead(text, this.showLogs);
  }
}
