// The API key forms (create 4.1, update 4.2): the commands that open them, their restore after a window
// reload, and a created key's secret kept reachable when its panel closes before it was copied.
import * as vscode from 'vscode';
import { describeUnsavedApiKeyUpdate, type UpdateApiKeyValues } from '../../webview/protocol/apiKeyForm';
import { ApiKeyState, VIEW_TYPES, type Unsaved } from '../../webview/protocol/messages';
import { connectionLabel, type ActiveConnection } from '../connections';
import { ApiKeyArg, ApiKeysArg, parseArg } from '../tree';
import { ApiKeyFormController, type CreatedKey } from './apiKeyController';
import { API_KEY_HOST_TEXT, PANEL_TEXT, TAB_TITLES } from './formText';
import { FormOpenError, type FormHandlers, type FormPanels, type KeptEdits, type PanelController } from './panels';

type Mode = 'create' | 'update';

export class ApiKeyPanels {
  /** Numbers the "update by id" forms, which have no key id to be told apart by. */
  private untitled = 0;

  constructor(private readonly panels: FormPanels) {}

  handlers(): FormHandlers {
    return {
      commands: { 'obs.apiKey.create': (arg) => this.create(arg), 'obs.apiKey.update': (arg) => this.update(arg) },
      restorers: {
        [VIEW_TYPES.createApiKey]: this.panels.restorer(VIEW_TYPES.createApiKey, (panel, state) =>
          this.restore(panel, state, 'create'),
        ),
        [VIEW_TYPES.updateApiKey]: this.panels.restorer(VIEW_TYPES.updateApiKey, (panel, state) =>
          this.restore(panel, state, 'update'),
        ),
      },
    };
  }

  private async create(arg: unknown): Promise<void> {
    const conn = await this.panels.connection(parseArg(ApiKeysArg, arg)?.connectionId);
    if (this.panels.reveal(`create:${conn.profile.id}`)) return;
    this.open(
      this.panels.newPanel(VIEW_TYPES.createApiKey, TAB_TITLES.createApiKey(connectionLabel(conn.profile.name))),
      conn,
      'create',
    );
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
        [
          ...known.map((k) => ({
            label: k.name,
            description: k.id,
            detail: k.disabled ? API_KEY_HOST_TEXT.pickDisabled : undefined,
            id: k.id,
          })),
          byId,
        ],
        { title: API_KEY_HOST_TEXT.pickTitle, placeHolder: API_KEY_HOST_TEXT.pickPlaceholder },
      );
      if (!picked) return;
      const remembered = known.find((k) => k.id === picked.id);
      initial = remembered
        ? { id: remembered.id, name: remembered.name, disabled: remembered.disabled }
        : { id: '', name: '', disabled: false };
    }
    if (initial.id !== '' && this.panels.reveal(`update:${conn.profile.id}:${initial.id}`)) return;
    const title = TAB_TITLES.updateApiKey(
      initial.id === '' ? '' : initial.name || initial.id,
      connectionLabel(conn.profile.name),
    );
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
      return describeUnsavedApiKeyUpdate(
        updateValues,
        known && { id: known.id, name: known.name, disabled: known.disabled },
      );
    });
    this.open(panel, conn, mode, updateValues, idFixed === true, { restoring: true });
  }

  private open(
    panel: vscode.WebviewPanel,
    conn: ActiveConnection,
    mode: Mode,
    initial?: UpdateApiKeyValues,
    idFixed = false,
    opts: OpenOptions = {},
  ): void {
    const { deps } = this.panels;
    // A form opened to update "by id" has no id yet: it gets a key of its own, so it never replaces another.
    const key =
      opts.key ??
      (mode === 'create'
        ? `create:${conn.profile.id}`
        : `update:${conn.profile.id}:${initial?.id || `by-id-${++this.untitled}`}`);
    const unsaved = opts.restoring ? undefined : keptState(this.panels.takeKept(key), mode);
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
          connectionName: connectionLabel(conn.profile.name),
          environmentId: conn.profile.environmentId,
          initialUpdate: initial,
          idFixed,
          unsaved,
          created: opts.created,
          keys: deps.keys,
          post,
          log: this.panels.log,
          copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
          // The first choice is the dialog's default (Enter): the callers put the safe one first.
          ask: (message, detail, choices) =>
            Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices)),
          close: () => panel.dispose(),
          onChanged: () => deps.refreshTree(),
          renamed: (name) => {
            if (idFixed) this.panels.retitle(panel, TAB_TITLES.updateApiKey(name, connectionLabel(conn.profile.name)));
          },
        }),
      {
        onClosed: (controller) => this.closed(controller, conn),
        reopen: () => {
          if (!this.panels.reveal(key))
            this.open(this.newPanel(conn, mode, initial), conn, mode, initial, idFixed, { key });
        },
      },
    );
  }

  private newPanel(conn: ActiveConnection, mode: Mode, initial: UpdateApiKeyValues | undefined): vscode.WebviewPanel {
    if (mode === 'create')
      return this.panels.newPanel(VIEW_TYPES.createApiKey, TAB_TITLES.createApiKey(connectionLabel(conn.profile.name)));
    return this.panels.newPanel(
      VIEW_TYPES.updateApiKey,
      TAB_TITLES.updateApiKey(initial?.id ? initial.name || initial.id : '', connectionLabel(conn.profile.name)),
    );
  }

  /**
   * A create form's panel closed with a secret never copied: the secret must stay reachable, so the panel
   * opens again with it (its page says why) until it is copied or dropped with Close. Nothing is written anywhere.
   */
  private async closed(controller: PanelController, conn: ActiveConnection): Promise<void> {
    if (!(controller instanceof ApiKeyFormController)) return;
    // A create still running finishes first, so its secret is not lost with the panel.
    await controller.whenIdle();
    const pending = controller.uncopiedKey();
    controller.dispose();
    if (pending === undefined) return;
    if (this.panels.isClosing) {
      this.panels.log.warn('the window closed with the secret of a new API key never copied');
      return;
    }
    this.open(this.newPanel(conn, 'create', undefined), conn, 'create', undefined, false, {
      created: pending,
      key: `created:${conn.profile.id}:${pending.id}:${++this.untitled}`,
    });
  }
}

interface OpenOptions {
  /** The panel's key, when it must be the one a closed panel had (Reopen). */
  key?: string;
  /** A panel restored after a window reload: its page has its edits already. */
  restoring?: boolean;
  /** A created key whose panel closed before its secret was copied. */
  created?: CreatedKey;
}

/** Kept edits that are this API key form's state (anything else is dropped). */
function keptState(kept: KeptEdits | undefined, mode: Mode): Unsaved<ApiKeyState> | undefined {
  const state = ApiKeyState.safeParse(kept?.state);
  return kept && state.success && state.data.mode === mode ? { state: state.data, savedAt: kept.savedAt } : undefined;
}
