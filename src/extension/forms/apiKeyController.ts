// Host side of the API key forms (4.1 create, 4.2 update). The created key's secret is held in memory
// only while the panel is open: never logged, never posted anywhere but to its own form, never stored.
import type { ServiceClient } from '../../api/client';
import type { CreatedApiKeyDocument } from '../../api/schemas';
import {
  checkCreateApiKey,
  checkUpdateApiKey,
  copyText,
  defaultCreateValues,
  resolveApiKeyField,
  type CopyWhat,
  type UpdateApiKeyValues,
} from '../../webview/protocol/apiKeyForm';
import {
  ApiKeyFromWebview,
  type ApiKeyState,
  type ApiKeyToWebview,
  type Unsaved,
} from '../../webview/protocol/messages';
import { formProblem, type FormProblems } from '../../webview/protocol/problems';
import { isServiceNotFound } from '../../api/errors';
import { errorText } from '../core/errors';
import type { KeyRegistry } from '../tree';
import { FormController, type ClientSource, type FormLog } from './controller';
import { API_KEY_HOST_TEXT, SECRET_TEXT } from './formText';

export interface CreatedKey {
  id: string;
  name: string;
  secret: string;
}

export interface ApiKeyFormDeps {
  mode: 'create' | 'update';
  /** The connection's client, asked for at each request (a restarted sandbox has a new one). */
  client: ClientSource<Pick<ServiceClient, 'createApiKey' | 'updateApiKey'>>;
  team: string;
  connectionId: string;
  connectionName: string;
  environmentId: string;
  /** For update: the key as remembered (or typed by the user). */
  initialUpdate?: UpdateApiKeyValues;
  /** For update: the form was opened for a known key, whose id cannot be changed. */
  idFixed?: boolean;
  /** Edits kept from this form's panel closed without saving: offered back with the first `init`. */
  unsaved?: Unsaved<ApiKeyState>;
  /** For create: a key whose panel was closed before its secret was copied; this form shows it again. */
  created?: CreatedKey;
  keys: Pick<KeyRegistry, 'list' | 'remember' | 'update'>;
  post(message: ApiKeyToWebview): void;
  log: FormLog;
  /** Writes to the clipboard (vscode.env.clipboard in the extension). */
  copy(text: string): Promise<void>;
  /**
   * A modal question; resolves to the choice taken, undefined for Cancel. The first choice is the
   * dialog's default (Enter).
   */
  ask(message: string, detail: string, choices: readonly string[]): Promise<string | undefined>;
  close(): void;
  onChanged?(): void;
  /** A key was saved under this name (the panel's title follows it). */
  renamed?(name: string): void;
}

export class ApiKeyFormController extends FormController<ApiKeyFromWebview, ApiKeyToWebview> {
  private created: CreatedKey | undefined;
  private copied = false;
  /** Edits kept from a closed panel, until the first init offers them. */
  private unsaved: Unsaved<ApiKeyState> | undefined;
  /** The key was carried over from a panel closed before its secret was copied: the page says so. */
  private readonly reopened: boolean;
  /** What the request running or last run named (a 404 says which of them the service did not find). */
  private lastSent: { id?: string; environmentId?: string } = {};

  constructor(private readonly deps: ApiKeyFormDeps) {
    super(
      deps.mode === 'create' ? 'create API key' : 'update API key',
      ApiKeyFromWebview,
      deps.post,
      deps.log,
      resolveApiKeyField,
      deps.connectionName,
    );
    this.unsaved = deps.unsaved;
    this.created = deps.mode === 'create' && deps.created ? { ...deps.created } : undefined;
    this.reopened = this.created !== undefined;
    this.dirtyChanged();
  }

  /**
   * The key created here whose secret was never copied, named as the "API keys" list names it now (it may
   * have been renamed since): the panel keeps it reachable when it is closed.
   */
  uncopiedKey(): CreatedKey | undefined {
    return this.created !== undefined && !this.copied
      ? { ...this.created, name: this.currentName(this.created) }
      : undefined;
  }

  /** A created key's name as the "API keys" list has it now (renamed since?), else as it was created. */
  private currentName(key: CreatedKey): string {
    return this.deps.keys.list(this.deps.connectionId).find((k) => k.id === key.id && key.id !== '')?.name ?? key.name;
  }

  /** An uncopied secret is something to lose: the tab says so like unsaved edits. */
  protected override isDirty(): boolean {
    return super.isDirty() || (this.created !== undefined && !this.copied);
  }

  override dispose(): void {
    this.created = undefined;
    super.dispose();
  }

  protected async handle(message: ApiKeyFromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.sendInit();
        return;
      case 'submitCreate':
        if (this.deps.mode !== 'create') return this.refuse('submitCreate');
        return this.once('create', () => this.create(message.values));
      case 'submitUpdate':
        if (this.deps.mode !== 'update') return this.refuse('submitUpdate');
        return this.once('update', () => this.update(message.values));
      case 'copy':
        return this.copy(message.what);
      case 'createAnother':
        if (!(await this.mayDropSecret(SECRET_TEXT.startWithout))) return;
        this.forgetSecret();
        this.post({ type: 'secretCleared' });
        return;
      case 'close':
        if (!(await this.mayDropSecret(SECRET_TEXT.closeWithout))) return;
        this.forgetSecret();
        this.deps.close();
        return;
      case 'draft':
        // A created key's form holds no edits: what it held was sent and the key exists. Kept, it would be
        // offered back on the next create form, one click from a second live key of the same name.
        if (this.deps.mode === 'create' && this.created !== undefined) return;
        return this.noteDraft(message.state);
    }
  }

  /**
   * True when the secret may be dropped: it was copied, there is none, or the user chose `dropIt`. The
   * default choice (Enter) copies the secret and keeps the panel open; Cancel keeps it open too.
   */
  private async mayDropSecret(dropIt: string): Promise<boolean> {
    const key = this.created;
    if (key === undefined || this.copied) return true;
    const copyChoice: [string, CopyWhat] =
      key.id === '' ? [SECRET_TEXT.copySecret, 'secret'] : [SECRET_TEXT.copyBoth, 'idAndSecret'];
    const choice = await this.deps.ask(SECRET_TEXT.notCopied(this.currentName(key)), SECRET_TEXT.cannotRetrieve, [
      copyChoice[0],
      dropIt,
    ]);
    if (choice === dropIt) return true;
    if (choice === copyChoice[0]) await this.copy(copyChoice[1]);
    return false;
  }

  private refuse(what: string): void {
    this.log.warn(`${this.deps.mode} API key form: refused "${what}", which this form does not send`);
  }

  private sendInit(): void {
    const { connectionId, connectionName } = this.deps;
    // Edits kept from a closed panel are offered once.
    const unsaved = this.unsaved ? { unsaved: this.unsaved } : {};
    this.unsaved = undefined;
    if (this.deps.mode === 'create') {
      this.post({
        type: 'init',
        mode: 'create',
        connectionId,
        connectionName,
        values: defaultCreateValues(this.deps.environmentId),
        ...unsaved,
      });
      // Hiding and showing the panel reloads the page: the secret comes back from memory, not from state.
      if (this.created) {
        const notes = this.reopened && !this.copied ? { notes: [SECRET_TEXT.reopened] } : {};
        this.post({ type: 'created', key: { ...this.created, name: this.currentName(this.created) }, ...notes });
      }
    } else {
      const values = this.deps.initialUpdate ?? { id: '', name: '', disabled: false };
      this.post({
        type: 'init',
        mode: 'update',
        connectionId,
        connectionName,
        values,
        idFixed: this.idFixed,
        ...unsaved,
      });
    }
  }

  private forgetSecret(): void {
    this.created = undefined;
    this.copied = false;
    this.dirtyChanged();
  }

  private async create(values: Parameters<typeof checkCreateApiKey>[0]): Promise<void> {
    // Whatever happens next, an earlier secret is never shown again by this form.
    this.forgetSecret();
    const checked = checkCreateApiKey(values);
    if (!checked.ok) {
      this.postProblems(checked.reason);
      return;
    }
    this.lastSent = { environmentId: values.environmentId };
    // No abort signal: closing the panel must not cut off a create the service may already have done;
    // the panel waits for it and still offers the secret (see apiKeyPanels.ts).
    await this.request('create', API_KEY_HOST_TEXT.creating, async () => {
      const res = await (await this.deps.client()).createApiKey(this.deps.team, checked.body);
      const key = res.data.data;
      // The secret is shown before anything else is tried: nothing that fails after this may lose it.
      this.created = { id: key.id, name: key.attributes.name, secret: key.attributes.secret };
      this.copied = false;
      // The values typed are spent: the key exists. Only its uncopied secret is left to lose.
      this.noteDraft(null);
      const notes = createdNotes(res.oddities?.map((p) => p.field) ?? [], key.id);
      this.post({ type: 'created', key: { ...this.created }, ...(notes.length > 0 ? { notes } : {}) });
      this.log.info(
        `created API key ${key.id === '' ? '(no id given)' : key.id} ("${key.attributes.name}") on ${this.deps.connectionName}`,
      );
      if (res.oddities !== undefined) {
        this.log.warn(
          `create API key: the service's answer was unusual: ${res.oddities.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
        );
      }
      if (key.id !== '') await this.rememberCreated(key);
      this.deps.onChanged?.();
    });
  }

  /** Lists the new key under "API keys"; a failure is said, and never touches the secret already shown. */
  private async rememberCreated(key: CreatedApiKeyDocument['data']): Promise<void> {
    try {
      await this.deps.keys.remember(this.deps.connectionId, {
        id: key.id,
        name: key.attributes.name,
        disabled: key.attributes.disabled,
        keyType: key.attributes.key_type,
        createdAt: key.attributes.timestamps?.created,
      });
    } catch (err) {
      this.log.warn(`create API key: could not remember key ${key.id} in the API keys list: ${errorText(err)}`);
      this.post({ type: 'status', message: API_KEY_HOST_TEXT.notRemembered(errorText(err)) });
    }
  }

  /**
   * A 404 said once, in the user's words: which of the team, the key or the environment the service did
   * not find (by where its error points), never the service's line beside an "HTTP 404" one.
   */
  protected override problemsOf(err: unknown): FormProblems {
    const status = typeof err === 'object' && err !== null ? (err as { status?: unknown }).status : undefined;
    if (status !== 404) return super.problemsOf(err);
    const T = API_KEY_HOST_TEXT;
    if (!isServiceNotFound(err)) return formProblem(T.notTheService(this.deps.connectionName));
    const { team, connectionName } = this.deps;
    const named = notFoundTarget(err);
    if (named === 'team') return formProblem(T.teamNotFound(team, connectionName));
    if (this.deps.mode === 'update' && named !== 'environment') {
      return { fields: { id: [T.keyNotFound(this.lastSent.id ?? '', team)] }, form: [] };
    }
    const environment = this.lastSent.environmentId ?? this.deps.environmentId;
    if (named === 'environment') return { fields: { environmentId: [T.environmentNotFound(environment)] }, form: [] };
    return formProblem(T.teamOrEnvironmentNotFound(team, environment));
  }

  /** True when this form updates one known key, whose id the page cannot change. */
  private get idFixed(): boolean {
    return this.deps.idFixed === true && (this.deps.initialUpdate?.id ?? '') !== '';
  }

  private async update(values: UpdateApiKeyValues): Promise<void> {
    if (this.idFixed && values.id !== this.deps.initialUpdate?.id) {
      this.refuse('submitUpdate for another key id');
      return;
    }
    const checked = checkUpdateApiKey(values);
    if (!checked.ok) {
      this.postProblems(checked.reason);
      return;
    }
    this.lastSent = { id: values.id };
    await this.request('update', API_KEY_HOST_TEXT.saving, async () => {
      const res = await (
        await this.deps.client()
      ).updateApiKey(this.deps.team, values.id, checked.body, { signal: this.abort.signal });
      const key = res.data.data;
      const patch = { name: key.attributes.name, disabled: key.attributes.disabled };
      if (this.deps.keys.list(this.deps.connectionId).some((k) => k.id === key.id)) {
        await this.deps.keys.update(this.deps.connectionId, key.id, patch);
      } else {
        // Updated by id: remember it, so it is listed from now on.
        await this.deps.keys.remember(this.deps.connectionId, {
          id: key.id,
          ...patch,
          keyType: key.attributes.key_type,
          createdAt: key.attributes.timestamps?.created,
        });
      }
      this.log.info(`updated API key ${key.id} on ${this.deps.connectionName}`);
      this.post({ type: 'updated', key: { id: key.id, ...patch } });
      this.deps.renamed?.(patch.name);
      this.deps.onChanged?.();
    });
  }

  private async copy(what: CopyWhat): Promise<void> {
    if (this.created === undefined) {
      this.post({ type: 'status', message: API_KEY_HOST_TEXT.secretGone, failed: true });
      return;
    }
    if (what === 'idAndSecret' && this.created.id === '') {
      this.post({ type: 'status', message: API_KEY_HOST_TEXT.noIdCopySecret, failed: true });
      return;
    }
    await this.deps.copy(copyText(what, this.created));
    this.copied = true;
    this.dirtyChanged();
    this.post({ type: 'copied', what });
  }
}

/** What a 404 of the key endpoints says it did not find, by its error's source (JSON:API `source`). */
function notFoundTarget(err: unknown): 'team' | 'key' | 'environment' | undefined {
  const problems = (err as { fieldProblems?: readonly { field: string; pointer?: string }[] }).fieldProblems ?? [];
  for (const p of problems) {
    const where = (p.pointer ?? p.field).toLowerCase();
    if (where === 'parameter team_slug') return 'team';
    if (where === 'parameter id') return 'key';
    const environment = where.includes('relationships/environment') || where.includes('relationships.environment');
    if (environment) return 'environment';
  }
  return undefined;
}

/** What the user should know about a created key beyond its secret: what was odd in the answer. */
function createdNotes(oddFields: readonly string[], id: string): string[] {
  const notes: string[] = [];
  if (oddFields.length > 0) {
    notes.push(API_KEY_HOST_TEXT.oddAnswer(oddFields));
  }
  if (id === '') notes.push(API_KEY_HOST_TEXT.noIdNote);
  return notes;
}
