// Pull of burn alerts and dataset definitions from the Datasets view: the files `obs pull --kinds` writes, by
// the same planning (triggerFiles/sloPull.ts) and writes as trigger files, into the folder of the kind's
// setting or one the user picks. A file that differs locally is overwritten only after a yes; one open with
// unsaved edits never.
import * as vscode from 'vscode';
import {
  applyPull,
  BURN_ALERT_PULL,
  burnAlertsByTarget,
  collectBurnAlerts,
  collectDefinitions,
  DEFINITIONS_FILE_SUFFIX,
  PacedPool,
  planDefinitionsPull,
  planKindPull,
  scanFolders,
  scanRoot,
  type PullAction,
  type PullReport,
  type RecipientLister,
  type SloReader,
} from '../../triggerFiles';
import { namedAsSet } from './pullRecipients';
import { connectionLabel } from '../connections';
import {
  askButtons,
  fileSystemAt,
  logReport,
  pickFolder,
  targetProblem,
  unsavedUnder,
  type FolderSetting,
  type PullDeps,
} from './pullCommands';
import { approveUpdates } from './pullPlanText';
import type { PullScope } from './pullScope';
import { sloPullDatasets, sloPullReportText, sloUpdateQuestion, type SloKind } from './sloPullText';

/** The kind's folder setting and the words of its folder picker. */
function folderSetting(deps: PullDeps, kind: SloKind): FolderSetting {
  return kind === 'burn-alerts'
    ? {
        name: 'obs.burnAlertPullFolder',
        value: deps.settings.burnAlertPullFolder(),
        title: vscode.l10n.t('Pull Burn Alerts'),
        placeHolder: vscode.l10n.t('Write the burn alert files into which folder?'),
      }
    : {
        name: 'obs.definitionsPullFolder',
        value: deps.settings.definitionsPullFolder(),
        title: vscode.l10n.t('Pull Dataset Definitions'),
        placeHolder: vscode.l10n.t('Write the definitions files into which folder?'),
      };
}

/** The plan's files written under the folder, each file that differs locally asked about first. */
function writePlan<I>(
  kind: SloKind,
  folder: vscode.Uri,
  plan: readonly PullAction<I>[],
  signal: AbortSignal,
  progress: (message: string) => void,
): Promise<PullReport> {
  const { fs, root } = fileSystemAt(folder);
  return applyPull(fs, root, plan, {
    signal,
    hold: unsavedUnder(folder),
    approve: (updates) =>
      approveUpdates(updates, async (u, left) => {
        const q = sloUpdateQuestion(kind, u, left);
        const buttons = askButtons();
        const choice = await vscode.window.showWarningMessage(
          q.message,
          { modal: true, detail: q.detail },
          ...buttons.map((b) => b.label),
        );
        return buttons.find((b) => b.label === choice)?.answer;
      }),
    onProgress: (done, total) => progress(vscode.l10n.t('{0} of {1} files', done, total)),
  });
}

/** Reads the kind's objects from the service, plans their files under the folder and writes them. */
async function pullKind(
  deps: PullDeps,
  kind: SloKind,
  client: SloReader & RecipientLister,
  datasets: string[],
  folder: vscode.Uri,
  run: { signal: AbortSignal; progress: (message: string) => void; failed: (n: number) => void },
): Promise<PullReport> {
  const log = deps.feedback.log;
  const pool = new PacedPool({
    concurrency: deps.settings.concurrency(),
    onPause: (ms) => run.progress(vscode.l10n.t("Waiting {0} s for the service's rate limit", Math.ceil(ms / 1000))),
  });
  const { fs, root } = fileSystemAt(folder);
  if (kind === 'burn-alerts') {
    const collected = await collectBurnAlerts(client, datasets, pool, run.signal);
    for (const f of collected.failures) log.warn(`pull: could not read ${f.what}: ${f.message}`);
    run.failed(collected.failures.length);
    const form = deps.settings.pullRecipients();
    const items = await namedAsSet(form, client, collected.items, burnAlertsByTarget, log, run.signal);
    const folders = items.map((i) => BURN_ALERT_PULL.folderOf(i));
    const existing = await scanFolders(fs, root, folders, BURN_ALERT_PULL.suffix, run.signal);
    return writePlan(kind, folder, planKindPull(BURN_ALERT_PULL, items, existing), run.signal, run.progress);
  }
  const collected = await collectDefinitions(client, datasets, pool, run.signal);
  for (const f of collected.failures) log.warn(`pull: could not read ${f.what}: ${f.message}`);
  run.failed(collected.failures.length);
  const existing = await scanRoot(fs, root, DEFINITIONS_FILE_SUFFIX);
  return writePlan(kind, folder, planDefinitionsPull(collected.items, existing), run.signal, run.progress);
}

/** Pulls a kind's files for a Datasets view item (or, from the palette, every dataset of the active connection). */
export async function pullSloFiles(
  deps: PullDeps,
  kind: SloKind,
  scope: PullScope,
  connectionId?: string,
): Promise<PullReport | undefined> {
  const active =
    connectionId === undefined
      ? await deps.connections.requireActive()
      : await deps.connections.connectionFor(connectionId);
  const datasets = sloPullDatasets(kind, scope, deps.datasets(active.profile.id));
  if (datasets.length === 0) {
    void vscode.window.showInformationMessage(
      kind === 'definitions'
        ? vscode.l10n.t('Definitions are kept per dataset: pull them from a dataset.')
        : vscode.l10n.t('Add a dataset to the Datasets view to pull its burn alerts.'),
    );
    return undefined;
  }
  const setting = folderSetting(deps, kind);
  const target = await pickFolder(setting, deps.feedback);
  if (target === undefined) return undefined;
  const outside = await targetProblem(target, setting.name);
  if (outside !== undefined) {
    void deps.feedback.reportRefusal(outside);
    return undefined;
  }
  const what =
    scope.kind === 'dataset'
      ? scope.slug
      : scope.kind === 'environment'
        ? vscode.l10n.t('the environment')
        : vscode.l10n.t('every dataset');
  const connection = connectionLabel(active.profile.name);
  let failures = 0;
  const report = await deps.feedback.runWithProgress(
    kind === 'burn-alerts'
      ? vscode.l10n.t('Pulling the burn alerts of {0} from {1}', what, connection)
      : vscode.l10n.t('Pulling the definitions of {0} from {1}', what, connection),
    (signal, progress) =>
      pullKind(deps, kind, active.client, datasets, target.folder, {
        signal,
        progress,
        failed: (n) => (failures = n),
      }),
  );
  if (report === undefined) return undefined;
  const shownFolder = vscode.workspace.asRelativePath(target.folder, false);
  logReport(deps.feedback.log, shownFolder, report);
  const text = sloPullReportText(kind, what, connection, shownFolder, report, failures);
  const show =
    report.failed.length > 0 || failures > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const showLogs = vscode.l10n.t('Show Logs');
  void show(text, showLogs).then((choice) => {
    if (choice === showLogs) void vscode.commands.executeCommand('obs.showLogs');
  });
  return report;
}
