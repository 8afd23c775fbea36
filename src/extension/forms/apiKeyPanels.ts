// The API key forms (create 4.1, update 4.2): the commands that open them, their restore after a window
// reload, and the last chance to copy a created key's secret when its panel closes.
import * as vscode from 'vscode';
import { copyText, describeUnsavedApiKeyUpdate, type CopyWhat, type UpdateApiKeyValues } from '../../webview/protocol/apiKeyForm';
import { ApiKeyState, VIEW_TYPES } from '../../webview/protocol/messages';
import type { ActiveConnection } from '../connections';
import { ApiKeyArg, ApiKeysArg, parseArg } from '../tree';
import { ApiKeyFormController, type CreatedKey } from './apiKeyController';
import { API_KEY_HOST_TEXT, PANEL_TEXT, SECRET_TEXT, TAB_TITLES } from './formText';
import { FormOpenError, type FormHandlers, type FormPanels } from './panels';

type Mode = 'create' | 'update';

export class ApiKeyPanels {
  /** Numbers the "update by id" forms, which have no key id to be told apart by. */
  private untitled = 0;

  constructor(private readonly panels: FormPanels) {}

  handlers(): FormHandlers {
    return {
      commands: { 'obs.apiKey.create': (arg) => this.create(arg), 'obs.apiKey.update': (arg) => this.update(arg) },
      restorers: {
        [VIEW_TYPES.createApiKey]: this.panels.restorer(VIEW_TYPES.createApiKey, (panel, state) => this.restore(panel, state, 'create')),
        [VIEW_TYPES.updateApiKey]: this.panels.restorer(VIEW_TYPES.updateApiKey, (panel, state) => this.restore(panel, state, 'update')),
      },
    };
  }

  private async create(arg: unknown): Promise<void> {
    const conn = await this.panels.connection(parseArg(ApiKeysArg, arg)?.connectionId);
    if (this.panels.reveal(`create:${conn.profile.id}`)) return;
    this.open(this.panels.newPanel(VIEW_TYPES.createApiKey, TAB_TITLES.createApiKey(conn.profile.name)), conn, 'create');
  }

  private async update(arg: unknown): Promise<void> {
    const node = parseArg(ApiKeyArg, arg);
    let conn: ActiveConnection;
    let initial: UpdateApiKeyValues;
    if (node) {
      conn = await this.panels.connection(node.connectionId);
      initial = { id: node.key.id, name: node.key.name, disabled: node.key.disabled };
    } else {
      conn = await this.panels.connection(undefined);
      const known = this.panels.deps.keys.list(conn.profile.id);
      const byId = { label: API_KEY_HOST_TEXT.pickById, id: undefined };
      const picked = await vscode.window.showQuickPick(
        [...known.map((k) => ({ label: k.name, description: k.id, detail: k.disabled ? API_KEY_HOST_TEXT.pickDisabled : undefined, id: k.id })), byId],
        { title: API_KEY_HOST_TEXT.pickTitle, placeHolder: API_KEY_HOST_TEXT.pickPlaceholder },
      );
      if (!picked) return;
      const remembered = known.find((k) => k.id === picked.id);
      initial = remembered ? { id: remembered.id, name: remembered.name, disabled: remembered.disabled } : { id: '', name: '', disabled: false };
    }
    if (initial.id !== '' && this.panels.reveal(`update:${conn.profile.id}:${initial.id}`)) return;
    const title = TAB_TITLES.updateApiKey(initial.id === '' ? '' : initial.name || initial.id, conn.profile.name);
    // A key picked from the tree or the remembered keys is known: the form cannot change its id.
    this.open(this.panels.newPanel(VIEW_TYPES.updateApiKey, title), conn, 'update', initial, initial.id !== '');
  }

  private async restore(panel: vscode.WebviewPanel, raw: unknown, mode: Mode): Promise<void> {
    const state = ApiKeyState.safeParse(raw);
    if (!state.success || state.data.mode !== mode) throw new FormOpenError(PANEL_TEXT.stateDamaged);
    const { connectionId, updateValues, idFixed } = state.data;
    // Only the update form's values are described: the create form's state has nothing worth keeping.
    const conn = await this.panels.restoredConnection(connectionId, () => {
      if (mode !== 'update' || updateValues === undefined) return undefined;
      const known = this.panels.deps.keys.list(connectionId).find((k) => k.id === updateValues.id);
      return describeUnsavedApiKeyUpdate(updateValues, known && { id: known.id, name: known.name, disabled: known.disabled });
    });
    this.open(panel, conn, mode, updateValues, idFixed === true);
  }

  private open(panel: vscode.WebviewPanel, conn: ActiveConnection, mode: Mode, initial?: UpdateApiKeyValues, idFixed = false): void {
    const { deps } = this.panels;
    // A form opened to update "by id" has no id yet: it gets a key of its own, so it never replaces another.
    const key = mode === 'create' ? `create:${conn.profile.id}` : `update:${conn.profile.id}:${initial?.id || `by-id-${++this.untitled}`}`;
    this.panels.attach(
      key,
      conn.profile.id,
      panel,
      'apiKeyForm',
      (post) =>
        new ApiKeyFormController({
          mode,
          client: this.panels.clientSource(conn.profile.id),
          team: conn.profile.team,
          connectionId: conn.profile.id,
          connectionName: conn.profile.name,
          environmentId: conn.profile.environmentId,
          initialUpdate: initial,
          idFixed,
          keys: deps.keys,
          post,
          log: this.panels.log,
          copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
          // The first choice is the dialog's default (Enter): the callers put the safe one first.
          ask: (message, detail, choices) => Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices)),
          close: () => panel.dispose(),
          onChanged: () => deps.refreshTree(),
          renamed: (name) => {
            if (idFixed) panel.title = TAB_TITLES.updateApiKey(name, conn.profile.name);
          },
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
    // The default (first) choice copies; a key without an id can only have its secret copied.
    const choices: Record<string, CopyWhat> = key.id === '' ? { [SECRET_TEXT.copySecret]: 'secret' } : { [SECRET_TEXT.copyBoth]: 'idAndSecret', [SECRET_TEXT.copySecret]: 'secret' };
    const choice = await vscode.window.showWarningMessage(SECRET_TEXT.notCopied(key.name), { modal: true, detail: SECRET_TEXT.cannotRetrieve }, ...Object.keys(choices));
    const what = choice === undefined ? undefined : choices[choice];
    if (what === undefined) return;
    await vscode.env.clipboard.writeText(copyText(what, key));
    void vscode.window.showInformationMessage(what === 'idAndSecret' ? SECRET_TEXT.copiedBoth : SECRET_TEXT.copiedSecret);
  }
}
