// Host side of the dataset definitions form (4.8). The spec has no GET for definitions: the current
// map is read with `PATCH {}`, which names no type, so nothing changes and the full map comes back.
import type { ServiceClient } from '../../api/client';
import type { DatasetDefinitions } from '../../api/schemas';
import type { UpdateDatasetDefinitionsRequest } from '../../api/schemas';
import {
  checkDefinitionsUpdate,
  definitionsDatasetProblem,
  placeRefusedColumns,
  resolveDefinitionField,
  type DefinitionRows,
} from '../../webview/protocol/datasetDefinitionsForm';
import { isServiceFailure, type FormProblems } from '../../webview/protocol/problems';
import { DEFINITIONS_TEXT } from '../../webview/protocol/text/datasetDefinitionsForm';
import {
  DefinitionsFromWebview,
  type DefinitionsContext,
  type DefinitionsState,
  type DefinitionsToWebview,
  type Unsaved,
} from '../../webview/protocol/messages';
import { errorText } from '../core/errors';
import { FormController, type ClientSource, type FormLog } from './controller';
import { DEFINITIONS_HOST_TEXT } from './formText';

export interface DefinitionsFormDeps {
  /** The connection's client, asked for at each request (a restarted sandbox has a new one). */
  client: ClientSource<Pick<ServiceClient, 'updateDatasetDefinitions' | 'listColumns'>>;
  context: DefinitionsContext;
  connectionName: string;
  /** The map as the form had it before a window reload. */
  loaded?: DatasetDefinitions;
  /** Edits kept from this form's panel closed without saving: offered back with the first `init`. */
  unsaved?: Unsaved<DefinitionsState>;
  post(message: DefinitionsToWebview): void;
  log: FormLog;
  /** The definitions were saved: the whole map the service answered. */
  onChanged?(saved: DatasetDefinitions): void;
}

/** Reads the definitions of a dataset: `PATCH {}` (4.8: types not present are not modified). */
async function readDefinitions(
  client: Pick<ServiceClient, 'updateDatasetDefinitions'>,
  dataset: string,
  signal?: AbortSignal,
): Promise<DatasetDefinitions> {
  return (await client.updateDatasetDefinitions(dataset, {}, { signal })).data;
}

export class DatasetDefinitionsFormController extends FormController<DefinitionsFromWebview, DefinitionsToWebview> {
  private loaded: DatasetDefinitions | undefined;
  private columns: { name: string; hidden: boolean }[] | null | undefined;
  /** The body of the save in flight: a refusal that names its columns only in text lands on their fields. */
  private sending: UpdateDatasetDefinitionsRequest | undefined;
  /** Whether the page was sent the map (an `init`); until then a connection coming back reads it. */
  private initSent = false;

  /** Edits kept from a closed panel, until the first init offers them. */
  private unsaved: Unsaved<DefinitionsState> | undefined;

  constructor(private readonly deps: DefinitionsFormDeps) {
    super(
      'dataset definitions',
      DefinitionsFromWebview,
      deps.post,
      deps.log,
      resolveDefinitionField,
      deps.connectionName,
    );
    this.loaded = deps.loaded;
    this.unsaved = deps.unsaved;
  }

  protected async handle(message: DefinitionsFromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.once('load', () => this.load(false));
      case 'reload':
        return this.once('reload', () => this.load(true));
      case 'submit':
        return this.once('save', () => this.submit(message.rows));
      case 'draft':
        return this.noteDraft(message.state);
    }
  }

  protected override reconnected(): void {
    if (!this.initSent) void this.once('load', () => this.load(false));
  }

  private async load(fresh: boolean): Promise<void> {
    const refused = definitionsDatasetProblem(this.deps.context.dataset);
    if (refused !== undefined) {
      this.post({ type: 'status', message: refused, failed: true });
      return;
    }
    try {
      const client = await this.deps.client();
      if (fresh || this.loaded === undefined)
        this.loaded = await readDefinitions(client, this.deps.context.dataset, this.abort.signal);
      if (fresh || this.columns === undefined) this.columns = await this.listColumns(client);
      this.initSent = true;
      // Said so a support log shows which map a form showed, and when.
      this.log.info(`dataset definitions form: showing the definitions of ${this.deps.context.dataset}`);
      // Edits kept from a closed panel are offered once: a later init (Reload) starts from the service.
      const unsaved = fresh ? undefined : this.unsaved;
      this.unsaved = undefined;
      this.post({
        type: 'init',
        context: this.deps.context,
        connectionName: this.deps.connectionName,
        loaded: this.loaded,
        columns: this.columns,
        discardEdits: fresh,
        ...(unsaved ? { unsaved } : {}),
      });
    } catch (err) {
      this.log.warn(`dataset definitions form: reading failed: ${errorText(err)}`);
      const problems = this.problemsOf(err);
      this.post({ type: 'status', message: DEFINITIONS_HOST_TEXT.couldNotRead(problems.form.join(' ')), failed: true });
    } finally {
      this.post({ type: 'busy', busy: false });
    }
  }

  /** The columns for completion and checks; null (no checks) when they cannot be listed. */
  private async listColumns(
    client: Pick<ServiceClient, 'listColumns'>,
  ): Promise<{ name: string; hidden: boolean }[] | null> {
    try {
      const res = await client.listColumns(this.deps.context.dataset, { signal: this.abort.signal });
      return res.data.map((c) => ({ name: c.key_name, hidden: c.hidden }));
    } catch (err) {
      this.log.warn(`dataset definitions form: could not list columns: ${errorText(err)}`);
      return null;
    }
  }

  private async submit(rows: DefinitionRows): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    const checked = checkDefinitionsUpdate(loaded, rows);
    if (!checked.ok) {
      this.postProblems(checked.reason);
      return;
    }
    const sent = Object.keys(checked.body) as (keyof typeof checked.body)[];
    if (sent.length === 0) {
      this.post({ type: 'status', message: DEFINITIONS_TEXT.nothingToSave });
      return;
    }
    this.sending = checked.body;
    try {
      await this.request('save', DEFINITIONS_TEXT.saving, async () => {
        const res = await (
          await this.deps.client()
        ).updateDatasetDefinitions(this.deps.context.dataset, checked.body, { signal: this.abort.signal });
        this.loaded = res.data;
        this.log.info(`updated dataset definitions of ${this.deps.context.dataset}: ${sent.join(', ')}`);
        this.post({ type: 'saved', loaded: res.data, sent });
        this.deps.onChanged?.(res.data);
      });
    } finally {
      this.sending = undefined;
    }
  }

  protected override problemsOf(err: unknown): FormProblems {
    const problems = super.problemsOf(err);
    if (this.sending === undefined || !isServiceFailure(err)) return problems;
    const known = this.columns ? new Set(this.columns.map((c) => c.name)) : null;
    return placeRefusedColumns(problems, err, this.sending, known);
  }
}
