// The form webviews: commands that open them, panels with a strict CSP, serializers that bring them back
// after a window reload, and the wiring of each panel to its vscode-free controller.
import * as vscode from 'vscode';
import * as z from 'zod';
import { BurnAlert, DatasetSlug, ENVIRONMENT_WIDE, type DatasetDefinitions } from '../../api/schemas';
import type { ActiveConnection } from '../connections/connectionManager';
import { reportError, type Services } from '../core/feedback';
import { ApiKeyFormController, type CreatedKey } from './apiKeyController';
import { copyText, describeUnsavedApiKeyUpdate, type CopyWhat, type UpdateApiKeyValues } from '../../webview/protocol/apiKeyForm';
import { BurnAlertFormController } from './burnAlertController';
import { describeUnsavedBurnAlert } from '../../webview/protocol/burnAlertForm';
import type { FormLog } from './controller';
import { DatasetDefinitionsFormController } from './datasetDefinitionsController';
import { definitionsDatasetProblem, describeUnsavedDefinitions } from '../../webview/protocol/datasetDefinitionsForm';
import { makeNonce, renderFormPage, renderNoticePage } from './html';
import {
  ApiKeyState,
  BurnAlertState,
  DefinitionsState,
  VIEW_TYPES,
  type BurnAlertContext,
  type DefinitionsContext,
} from '../../webview/protocol/messages';
import { REVIEW_SCHEME, ReviewDocuments } from './reviewDocuments';

type Script = 'apiKeyForm' | 'burnAlertForm' | 'datasetDefinitionsForm';

interface Controller {
  receive(raw: unknown): Promise<void>;
  whenIdle(): Promise<void>;
  dispose(): void;
}

/**
 * Test hook, on the extension's API as `forms` (for test/vscode/suite/forms-*.test.ts, which cannot
 * reach a webview's page): the open form panels, and a way to hand one of them a message exactly as
 * its webview's message listener does. Messages only go in: nothing a form posts to its page (such
 * as a created key's secret) can be read through it.
 */
export interface FormsProbe {
  /** Keys of the open forms: `create:<connection id>`, `update:<connection id>:<key id>`,
   * `burnAlert:<connection id>:<dataset>:<alert id>`, `definitions:<connection id>:<dataset>`. */
  openForms(): string[];
  /** Waits until form `key` runs no request, then hands it `raw`; resolves once it is handled. False when no such form is open. */
  deliver(key: string, raw: unknown): Promise<boolean>;
}

// Command arguments come from tree nodes, but any caller may pass anything: each is parsed.
const ApiKeysArg = z.looseObject({ kind: z.literal('apiKeys'), connectionId: z.string() });
const ApiKeyArg = z.looseObject({
  kind: z.literal('apiKey'),
  connectionId: z.string(),
  key: z.looseObject({ id: z.string().min(1), name: z.string(), disabled: z.boolean() }),
});
const BurnAlertArg = z.looseObject({
  kind: z.literal('burnAlert'),
  connectionId: z.string(),
  dataset: z.string(),
  sloId: z.string(),
  alert: BurnAlert,
});
const DatasetArg = z.looseObject({ kind: z.literal('dataset'), connectionId: z.string(), slug: z.string() });

class FormOpenError extends Error {
  readonly kind = 'form-open';
}

class Forms implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly controllers = new Map<vscode.WebviewPanel, Controller>();
  private readonly reviews = new ReviewDocuments();
  private readonly log: FormLog;
  private untitled = 0;

  constructor(private readonly services: Services) {
    this.log = services.log;
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    this.reviews.dispose();
  }

  registrations(): vscode.Disposable[] {
    const command = (id: string, run: (arg: unknown) => Promise<void>, what: string): vscode.Disposable =>
      vscode.commands.registerCommand(id, async (arg: unknown) => {
        try {
          await run(arg);
        } catch (err) {
          if (err instanceof Error && err.name === 'NoConnectionError') return;
          await reportError(this.services.log, what, err);
        }
      });
    const serializer = (viewType: string, restore: (panel: vscode.WebviewPanel, state: unknown) => Promise<void>): vscode.Disposable =>
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          try {
            await restore(panel, state);
          } catch (err) {
            this.log.warn(`could not restore a form (${viewType}): ${err instanceof Error ? err.message : String(err)}`);
            this.notice(panel, 'This form could not be restored', err instanceof Error ? err.message : String(err));
          }
        },
      });
    return [
      this,
      vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, this.reviews),
      command('obs.apiKey.create', (arg) => this.createApiKey(arg), 'open the create API key form'),
      command('obs.apiKey.update', (arg) => this.updateApiKey(arg), 'open the update API key form'),
      command('obs.burnAlert.edit', (arg) => this.editBurnAlert(arg), 'open the burn alert form'),
      command('obs.datasetDefinitions.edit', (arg) => this.editDefinitions(arg), 'open the dataset definitions form'),
      serializer(VIEW_TYPES.createApiKey, (panel, state) => this.restoreApiKey(panel, state, 'create')),
      serializer(VIEW_TYPES.updateApiKey, (panel, state) => this.restoreApiKey(panel, state, 'update')),
      serializer(VIEW_TYPES.burnAlert, (panel, state) => this.restoreBurnAlert(panel, state)),
      serializer(VIEW_TYPES.datasetDefinitions, (panel, state) => this.restoreDefinitions(panel, state)),
    ];
  }

  // --- connections -----------------------------------------------------------------------------------

  /** The connection a tree item belongs to, or the active one when no item was given. */
  private async connection(connectionId: string | undefined): Promise<ActiveConnection> {
    const connections = this.services.connections;
    if (connectionId === undefined) return connections.requireActive();
    const active = await connections.getActive();
    if (active && active.profile.id === connectionId) return active;
    const profile = connections.list().find((p) => p.id === connectionId);
    if (!profile) throw new FormOpenError('The connection of this item no longer exists.');
    return { profile, client: await connections.clientFor(profile) };
  }

  /**
   * The connection of a form being restored. When it is gone (the sandbox lives only as long as its
   * window), the error also says what the user had typed and not sent, so it is not lost without a word.
   */
  private async restoredConnection(connectionId: string, unsaved: () => string | undefined): Promise<ActiveConnection> {
    try {
      return await this.connection(connectionId);
    } catch (err) {
      const described = unsaved();
      if (described === undefined || !(err instanceof Error)) throw err;
      throw new FormOpenError(`${err.message} ${described}`);
    }
  }

  // --- panels ----------------------------------------------------------------------------------------

  private webviewOptions(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    const root = this.services.context.extensionUri;
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [vscode.Uri.joinPath(root, 'dist', 'webview')],
    };
  }

  /** Reveals the panel already open for this key, if any. */
  private reveal(key: string): boolean {
    const panel = this.panels.get(key);
    if (!panel) return false;
    panel.reveal();
    return true;
  }

  private newPanel(viewType: string, title: string): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, this.webviewOptions());
  }

  /**
   * Loads the form page into the panel and connects it to its controller: every message goes to the
   * controller (which parses it), and the controller's messages go to the page while it exists.
   */
  private attach(
    key: string,
    panel: vscode.WebviewPanel,
    script: Script,
    make: (post: (message: unknown) => void) => Controller,
    onClosed?: (controller: Controller) => Promise<void>,
  ): void {
    const webview = panel.webview;
    webview.options = this.webviewOptions();
    const root = this.services.context.extensionUri;
    let open = true;
    const controller = make((message) => {
      if (!open) return;
      webview.postMessage(message).then(undefined, (err: unknown) => this.log.warn(`form message not delivered: ${String(err)}`));
    });
    webview.html = renderFormPage({
      title: panel.title,
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', `${script}.js`)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', 'forms.css')).toString(),
    });
    this.panels.get(key)?.dispose();
    this.panels.set(key, panel);
    this.controllers.set(panel, controller);
    const received = webview.onDidReceiveMessage((raw: unknown) => void controller.receive(raw));
    panel.onDidDispose(() => {
      open = false;
      received.dispose();
      if (this.panels.get(key) === panel) this.panels.delete(key);
      this.controllers.delete(panel);
      void (async () => {
        try {
          if (onClosed) await onClosed(controller);
        } finally {
          controller.dispose();
        }
      })();
    });
  }

  /** The test hook (see FormsProbe). */
  probe(): FormsProbe {
    return {
      openForms: () => [...this.panels.keys()],
      deliver: async (key, raw) => {
        const panel = this.panels.get(key);
        const controller = panel && this.controllers.get(panel);
        if (!controller) return false;
        await controller.whenIdle();
        await controller.receive(raw);
        return true;
      },
    };
  }

  private notice(panel: vscode.WebviewPanel, title: string, message: string): void {
    panel.webview.options = { enableScripts: false, localResourceRoots: [] };
    panel.webview.html = renderNoticePage(title, message, panel.webview.cspSource);
  }

  // --- API keys ----------------------------------------------------------------------------------------

  private async createApiKey(arg: unknown): Promise<void> {
    const node = ApiKeysArg.safeParse(arg);
    const conn = await this.connection(node.success ? node.data.connectionId : undefined);
    const key = `create:${conn.profile.id}`;
    if (this.reveal(key)) return;
    this.openApiKey(this.newPanel(VIEW_TYPES.createApiKey, `Create API Key (${conn.profile.name})`), conn, 'create');
  }

  private async updateApiKey(arg: unknown): Promise<void> {
    const node = ApiKeyArg.safeParse(arg);
    let conn: ActiveConnection;
    let initial: UpdateApiKeyValues;
    if (node.success) {
      conn = await this.connection(node.data.connectionId);
      initial = { id: node.data.key.id, name: node.data.key.name, disabled: node.data.key.disabled };
    } else {
      conn = await this.connection(undefined);
      const known = this.services.keyRegistry.list(conn.profile.id);
      const byId = { label: '$(key) Update a key by its id…', id: undefined };
      const picked = await vscode.window.showQuickPick(
        [...known.map((k) => ({ label: k.name, description: k.id, detail: k.disabled ? 'disabled' : undefined, id: k.id })), byId],
        { title: 'Update API Key', placeHolder: 'Choose a key remembered for this connection, or update one by id' },
      );
      if (!picked) return;
      const remembered = known.find((k) => k.id === picked.id);
      initial = remembered ? { id: remembered.id, name: remembered.name, disabled: remembered.disabled } : { id: '', name: '', disabled: false };
    }
    const key = `update:${conn.profile.id}:${initial.id}`;
    if (initial.id !== '' && this.reveal(key)) return;
    const title = initial.id === '' ? 'Update API Key' : `API Key ${initial.name || initial.id}`;
    this.openApiKey(this.newPanel(VIEW_TYPES.updateApiKey, title), conn, 'update', initial);
  }

  private async restoreApiKey(panel: vscode.WebviewPanel, raw: unknown, mode: 'create' | 'update'): Promise<void> {
    const state = ApiKeyState.safeParse(raw);
    if (!state.success || state.data.mode !== mode) throw new FormOpenError('Its saved state is missing or damaged. Open the form again.');
    const { connectionId, updateValues } = state.data;
    // Only the update form's values are described: the create form's state has nothing worth keeping.
    const conn = await this.restoredConnection(connectionId, () => {
      if (mode !== 'update' || updateValues === undefined) return undefined;
      const known = this.services.keyRegistry.list(connectionId).find((k) => k.id === updateValues.id);
      return describeUnsavedApiKeyUpdate(updateValues, known && { id: known.id, name: known.name, disabled: known.disabled });
    });
    this.openApiKey(panel, conn, mode, updateValues);
  }

  private openApiKey(panel: vscode.WebviewPanel, conn: ActiveConnection, mode: 'create' | 'update', initial?: UpdateApiKeyValues): void {
    // A form opened to update "by id" has no id yet: it gets a key of its own, so it never replaces another.
    const key =
      mode === 'create' ? `create:${conn.profile.id}` : `update:${conn.profile.id}:${initial?.id || `by-id-${++this.untitled}`}`;
    this.attach(
      key,
      panel,
      'apiKeyForm',
      (post) =>
        new ApiKeyFormController({
          mode,
          client: conn.client,
          team: conn.profile.team,
          connectionId: conn.profile.id,
          connectionName: conn.profile.name,
          environmentId: conn.profile.environmentId,
          initialUpdate: initial,
          keys: this.services.keyRegistry,
          post,
          log: this.log,
          copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
          confirm: async (message, action) => (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
          close: () => panel.dispose(),
          onChanged: () => this.services.refreshTree(),
        }),
      async (controller) => {
        if (!(controller instanceof ApiKeyFormController)) return;
        // A create still running finishes first, so its secret is not lost with the panel.
        await controller.whenIdle();
        const pending = controller.uncopiedKey();
        controller.dispose();
        if (pending) await this.lastChanceToCopy(pending);
      },
    );
  }

  /** The panel closed with a secret never copied: offer it once more, then it is gone for good. */
  private async lastChanceToCopy(key: CreatedKey): Promise<void> {
    const choices: Record<string, CopyWhat> = { 'Copy id:secret': 'idAndSecret', 'Copy Secret Only': 'secret' };
    const choice = await vscode.window.showWarningMessage(
      `The secret of the new API key "${key.name}" was not copied.`,
      { modal: true, detail: 'It cannot be retrieved again. Copy it now, or disable the key and create a new one.' },
      ...Object.keys(choices),
    );
    const what = choice === undefined ? undefined : choices[choice];
    if (what === undefined) return;
    await vscode.env.clipboard.writeText(copyText(what, key));
    void vscode.window.showInformationMessage(what === 'idAndSecret' ? 'id:secret copied to the clipboard.' : 'The secret was copied to the clipboard.');
  }

  // --- burn alerts -------------------------------------------------------------------------------------

  private async editBurnAlert(arg: unknown): Promise<void> {
    const node = BurnAlertArg.safeParse(arg);
    if (node.success) {
      const { connectionId, dataset, sloId, alert } = node.data;
      const conn = await this.connection(connectionId);
      this.openBurnAlert(undefined, conn, { connectionId: conn.profile.id, dataset, sloId, alertId: alert.id }, alert);
      return;
    }
    const conn = await this.connection(undefined);
    const dataset = await vscode.window.showInputBox({
      title: 'Edit Burn Alert (1/3)',
      prompt: `Dataset slug of the SLO (or ${ENVIRONMENT_WIDE} for environment-wide)`,
      validateInput: (v) => (DatasetSlug.safeParse(v).success ? undefined : (DatasetSlug.safeParse(v).error?.issues[0]?.message ?? 'invalid slug')),
    });
    if (dataset === undefined) return;
    const sloId = await vscode.window.showInputBox({
      title: 'Edit Burn Alert (2/3)',
      prompt: 'SLO id',
      validateInput: (v) => (v.trim() === '' ? 'SLO id must not be empty' : undefined),
    });
    if (sloId === undefined) return;
    const alerts = await this.services.runWithProgress('Listing burn alerts…', async (signal) => (await conn.client.listBurnAlerts(dataset, sloId.trim(), { signal })).data);
    if (alerts === undefined) return;
    if (alerts.length === 0) {
      void vscode.window.showInformationMessage(`SLO ${sloId} has no burn alerts.`);
      return;
    }
    const picked = await vscode.window.showQuickPick(
      alerts.map((a) => ({ label: a.id, description: a.alert_type, detail: a.description, alert: a })),
      { title: 'Edit Burn Alert (3/3)', placeHolder: 'Choose the burn alert' },
    );
    if (!picked) return;
    this.openBurnAlert(undefined, conn, { connectionId: conn.profile.id, dataset, sloId: sloId.trim(), alertId: picked.alert.id }, picked.alert);
  }

  private async restoreBurnAlert(panel: vscode.WebviewPanel, raw: unknown): Promise<void> {
    const state = BurnAlertState.safeParse(raw);
    if (!state.success) throw new FormOpenError('Its saved state is missing or damaged. Open the form again.');
    const { context, loaded, edits, drafts } = state.data;
    const conn = await this.restoredConnection(context.connectionId, () => describeUnsavedBurnAlert(loaded, edits, drafts));
    this.openBurnAlert(panel, conn, context, loaded);
  }

  private openBurnAlert(existing: vscode.WebviewPanel | undefined, conn: ActiveConnection, context: BurnAlertContext, loaded?: BurnAlert): void {
    const key = `burnAlert:${context.connectionId}:${context.dataset}:${context.alertId}`;
    if (!existing && this.reveal(key)) return;
    const panel = existing ?? this.newPanel(VIEW_TYPES.burnAlert, `Burn Alert ${context.alertId}`);
    this.attach(
      key,
      panel,
      'burnAlertForm',
      (post) =>
        new BurnAlertFormController({
          client: conn.client,
          context,
          connectionName: conn.profile.name,
          loaded,
          post,
          log: this.log,
          openDiff: (left, right, title) => this.reviews.openDiff(left, right, title),
          onChanged: () => this.services.refreshTree(),
        }),
    );
  }

  // --- dataset definitions ----------------------------------------------------------------------------

  private async editDefinitions(arg: unknown): Promise<void> {
    const node = DatasetArg.safeParse(arg);
    let dataset: string;
    let conn: ActiveConnection;
    if (node.success) {
      conn = await this.connection(node.data.connectionId);
      dataset = node.data.slug;
    } else {
      conn = await this.connection(undefined);
      const typed = await vscode.window.showInputBox({
        title: 'Edit Dataset Definitions',
        prompt: 'Dataset slug',
        validateInput: (v) => definitionsDatasetProblem(v),
      });
      if (typed === undefined) return;
      dataset = typed;
    }
    const refused = definitionsDatasetProblem(dataset);
    if (refused !== undefined) {
      void vscode.window.showErrorMessage(refused);
      return;
    }
    this.openDefinitions(undefined, conn, { connectionId: conn.profile.id, dataset });
  }

  private async restoreDefinitions(panel: vscode.WebviewPanel, raw: unknown): Promise<void> {
    const state = DefinitionsState.safeParse(raw);
    if (!state.success) throw new FormOpenError('Its saved state is missing or damaged. Open the form again.');
    const conn = await this.restoredConnection(state.data.context.connectionId, () =>
      describeUnsavedDefinitions(state.data.loaded, state.data.rows),
    );
    this.openDefinitions(panel, conn, state.data.context, state.data.loaded);
  }

  private openDefinitions(
    existing: vscode.WebviewPanel | undefined,
    conn: ActiveConnection,
    context: DefinitionsContext,
    loaded?: DatasetDefinitions,
  ): void {
    const key = `definitions:${context.connectionId}:${context.dataset}`;
    if (!existing && this.reveal(key)) return;
    const panel = existing ?? this.newPanel(VIEW_TYPES.datasetDefinitions, `Definitions: ${context.dataset}`);
    this.attach(
      key,
      panel,
      'datasetDefinitionsForm',
      (post) =>
        new DatasetDefinitionsFormController({
          client: conn.client,
          context,
          connectionName: conn.profile.name,
          loaded,
          post,
          log: this.log,
        }),
    );
  }
}

/** Registers the form commands, their serializers and the review documents' scheme; `probe` is the test hook. */
export function registerForms(services: Services): { registrations: vscode.Disposable[]; probe: FormsProbe } {
  const forms = new Forms(services);
  return { registrations: forms.registrations(), probe: forms.probe() };
}
