// The dataset definitions form (4.8): the command that opens it and its restore after a window reload.
import * as vscode from 'vscode';
import type { DatasetDefinitions } from '../../api/schemas';
import { definitionsDatasetProblem, describeUnsavedDefinitions } from '../../webview/protocol/datasetDefinitionsForm';
import { DefinitionsState, VIEW_TYPES, type DefinitionsContext, type Unsaved } from '../../webview/protocol/messages';
import { connectionLabel, type ActiveConnection } from '../connections';
import { DatasetArg, parseArg } from '../tree';
import { DatasetDefinitionsFormController } from './datasetDefinitionsController';
import { DEFINITIONS_HOST_TEXT, PANEL_TEXT, TAB_TITLES } from './formText';
import type { FormFiles } from './formFiles';
import { FormOpenError, type FormHandlers, type FormPanels, type KeptEdits } from './panels';

export class DefinitionsPanel {
  constructor(
    private readonly panels: FormPanels,
    private readonly files: FormFiles,
  ) {}

  handlers(): FormHandlers {
    return {
      commands: { 'obs.datasetDefinitions.edit': (arg) => this.edit(arg) },
      restorers: {
        [VIEW_TYPES.datasetDefinitions]: this.panels.restorer(VIEW_TYPES.datasetDefinitions, (panel, state) =>
          this.restore(panel, state),
        ),
      },
    };
  }

  private async edit(arg: unknown): Promise<void> {
    const node = parseArg(DatasetArg, arg);
    let dataset: string;
    let conn: ActiveConnection;
    if (node) {
      conn = await this.panels.connection(node.connectionId);
      dataset = node.slug;
    } else {
      conn = await this.panels.connection(undefined);
      const typed = await vscode.window.showInputBox({
        title: DEFINITIONS_HOST_TEXT.pickTitle,
        prompt: DEFINITIONS_HOST_TEXT.datasetPrompt,
        validateInput: (v) => definitionsDatasetProblem(v),
      });
      if (typed === undefined) return;
      dataset = typed;
    }
    const refused = definitionsDatasetProblem(dataset);
    if (refused !== undefined) {
      void this.panels.deps.feedback.reportRefusal(refused);
      return;
    }
    this.open(undefined, conn, { connectionId: conn.profile.id, dataset });
  }

  private async restore(panel: vscode.WebviewPanel, raw: unknown): Promise<void> {
    const state = DefinitionsState.safeParse(raw);
    if (!state.success) throw new FormOpenError(PANEL_TEXT.stateDamaged);
    const { context, loaded, rows } = state.data;
    const conn = await this.panels.restoredConnection(context.connectionId, () =>
      describeUnsavedDefinitions(loaded, rows),
    );
    this.open(panel, conn, context, loaded);
  }

  private open(
    existing: vscode.WebviewPanel | undefined,
    conn: ActiveConnection,
    context: DefinitionsContext,
    loaded?: DatasetDefinitions,
  ): void {
    const key = `definitions:${context.connectionId}:${context.dataset}`;
    if (!existing && this.panels.reveal(key)) return;
    // Edits kept from this form's panel closed without saving: the page puts the changed definitions back on the map read now.
    const unsaved = existing ? undefined : keptState(this.panels.takeKept(key));
    const panel =
      existing ??
      this.panels.newPanel(
        VIEW_TYPES.datasetDefinitions,
        TAB_TITLES.definitions(context.dataset, connectionLabel(conn.profile.name)),
      );
    this.panels.attach(
      key,
      conn.profile.id,
      panel,
      'datasetDefinitionsForm',
      (post) =>
        new DatasetDefinitionsFormController({
          client: this.panels.clientSource(conn.profile.id),
          context,
          connectionName: connectionLabel(conn.profile.name),
          loaded,
          unsaved,
          post,
          log: this.panels.log,
          onChanged: (map) =>
            this.panels.deps.onSloSaved(conn.profile.id, { kind: 'definitions', dataset: context.dataset, map }),
        }),
      { reopen: () => this.open(undefined, conn, context) },
    );
    this.files.track(panel, { kind: 'definitions', dataset: context.dataset });
  }
}

/** Kept edits that are a dataset definitions form's state (anything else is dropped). */
function keptState(kept: KeptEdits | undefined): Unsaved<DefinitionsState> | undefined {
  const state = DefinitionsState.safeParse(kept?.state);
  return kept && state.success ? { state: state.data, savedAt: kept.savedAt } : undefined;
}
