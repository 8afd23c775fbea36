// The burn alert form (4.3, 4.4): the command that opens it (from a tree item, or by asking for the
// dataset, SLO and alert), and its restore after a window reload.
import * as vscode from 'vscode';
import { DatasetSlug, ENVIRONMENT_WIDE, type BurnAlert } from '../../api/schemas';
import { describeUnsavedBurnAlert } from '../../webview/protocol/burnAlertForm';
import { BurnAlertState, VIEW_TYPES, type BurnAlertContext, type Unsaved } from '../../webview/protocol/messages';
import { connectionLabel, type ActiveConnection } from '../connections';
import { loadItemArgs, parseArg } from '../tree';
import { BurnAlertFormController } from './burnAlertController';
import { BURN_ALERT_HOST_TEXT, PANEL_TEXT, TAB_TITLES } from './formText';
import type { FormFiles } from './formFiles';
import { FormOpenError, type FormHandlers, type FormPanels, type KeptEdits } from './panels';

export class BurnAlertPanel {
  constructor(
    private readonly panels: FormPanels,
    private readonly files: FormFiles,
  ) {}

  handlers(): FormHandlers {
    return {
      commands: { 'obs.burnAlert.edit': (arg) => this.edit(arg) },
      restorers: {
        [VIEW_TYPES.burnAlert]: this.panels.restorer(VIEW_TYPES.burnAlert, (panel, state) =>
          this.restore(panel, state),
        ),
      },
    };
  }

  private async edit(arg: unknown): Promise<void> {
    const node = parseArg((await loadItemArgs()).BurnAlertArg, arg);
    if (node) {
      const conn = await this.panels.connection(node.connectionId);
      this.open(
        undefined,
        conn,
        { connectionId: conn.profile.id, dataset: node.dataset, sloId: node.sloId, alertId: node.alert.id },
        node.alert,
      );
      return;
    }
    const conn = await this.panels.connection(undefined);
    const dataset = await vscode.window.showInputBox({
      title: BURN_ALERT_HOST_TEXT.step(1),
      prompt: BURN_ALERT_HOST_TEXT.datasetPrompt(ENVIRONMENT_WIDE),
      validateInput: (v) => {
        const parsed = DatasetSlug.safeParse(v);
        return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? BURN_ALERT_HOST_TEXT.invalidSlug);
      },
    });
    if (dataset === undefined) return;
    const sloId = await vscode.window.showInputBox({
      title: BURN_ALERT_HOST_TEXT.step(2),
      prompt: BURN_ALERT_HOST_TEXT.sloPrompt,
      validateInput: (v) => (v.trim() === '' ? BURN_ALERT_HOST_TEXT.sloEmpty : undefined),
    });
    if (sloId === undefined) return;
    const alerts = await this.panels.deps.feedback.runWithProgress(
      BURN_ALERT_HOST_TEXT.listing,
      async (signal) => (await conn.client.listBurnAlerts(dataset, sloId.trim(), { signal })).data,
    );
    if (alerts === undefined) return;
    if (alerts.length === 0) {
      void vscode.window.showInformationMessage(BURN_ALERT_HOST_TEXT.noAlerts(sloId));
      return;
    }
    const picked = await vscode.window.showQuickPick(
      alerts.map((a) => ({ label: a.id, description: a.alert_type, detail: a.description, alert: a })),
      { title: BURN_ALERT_HOST_TEXT.step(3), placeHolder: BURN_ALERT_HOST_TEXT.pickAlert },
    );
    if (!picked) return;
    this.open(
      undefined,
      conn,
      { connectionId: conn.profile.id, dataset, sloId: sloId.trim(), alertId: picked.alert.id },
      picked.alert,
    );
  }

  private async restore(panel: vscode.WebviewPanel, raw: unknown): Promise<void> {
    const state = BurnAlertState.safeParse(raw);
    if (!state.success) throw new FormOpenError(PANEL_TEXT.stateDamaged);
    const { context, loaded, edits, drafts, recipientId } = state.data;
    const conn = await this.panels.restoredConnection(context.connectionId, () =>
      describeUnsavedBurnAlert(loaded, edits, drafts, recipientId),
    );
    this.open(panel, conn, context, loaded, true);
  }

  private open(
    existing: vscode.WebviewPanel | undefined,
    conn: ActiveConnection,
    context: BurnAlertContext,
    loaded?: BurnAlert,
    restored = false,
  ): void {
    const key = `burnAlert:${context.connectionId}:${context.dataset}:${context.alertId}`;
    if (!existing && this.panels.reveal(key)) return;
    // Edits kept from this form's panel closed without saving: their version is the base (the check at Save compares it).
    const unsaved = existing ? undefined : keptState(this.panels.takeKept(key));
    const base = unsaved?.state.loaded ?? loaded;
    const panel =
      existing ??
      this.panels.newPanel(
        VIEW_TYPES.burnAlert,
        TAB_TITLES.burnAlert(context.alertId, connectionLabel(conn.profile.name)),
      );
    this.panels.attach(
      key,
      conn.profile.id,
      panel,
      'burnAlertForm',
      (post) =>
        new BurnAlertFormController({
          client: this.panels.clientSource(conn.profile.id),
          context,
          connectionName: connectionLabel(conn.profile.name),
          loaded: base,
          restored: restored || unsaved?.state.loaded !== undefined,
          unsaved,
          post,
          log: this.panels.log,
          openDiff: (left, right, title) => this.panels.deps.reviews.openDiff(left, right, title, key),
          closeDiffs: () => this.panels.deps.reviews.closeDiffs(key),
          onChanged: (alert) => {
            this.panels.deps.refreshTree();
            this.panels.deps.onSloSaved(conn.profile.id, { kind: 'burn-alert', dataset: context.dataset, alert });
          },
        }),
      { reopen: () => this.open(undefined, conn, context, loaded) },
    );
    this.files.track(panel, { kind: 'burn-alert', dataset: context.dataset, alertId: context.alertId });
  }
}

/** Kept edits that are a burn alert form's state (anything else is dropped). */
function keptState(kept: KeptEdits | undefined): Unsaved<BurnAlertState> | undefined {
  const state = BurnAlertState.safeParse(kept?.state);
  return kept && state.success ? { state: state.data, savedAt: kept.savedAt } : undefined;
}
