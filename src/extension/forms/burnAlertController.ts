// Host side of the burn alert form (4.3 list, 4.4 update). Before every PUT the alert is read again and
// its updated_at compared with the version the form opened on; on a difference the user chooses.
import type { ServiceClient } from '../../api/client';
import { ENVIRONMENT_WIDE, type BurnAlert, type Recipient, type UpdateBurnAlertRequest } from '../../api/schemas';
import {
  burnAlertForReview,
  checkBurnAlertUpdate,
  isSameVersion,
  parseBurnAlert,
  recipientOptions,
  resolveBurnAlertField,
  type BurnAlertEdits,
  type RecipientOption,
} from '../../webview/protocol/burnAlertForm';
import {
  BurnAlertFromWebview,
  type BurnAlertContext,
  type BurnAlertState,
  type BurnAlertToWebview,
  type Unsaved,
} from '../../webview/protocol/messages';
import { formProblem } from '../../webview/protocol/problems';
import { errorText } from '../core/errors';
import { FormController, type ClientSource, type FormLog } from './controller';
import { BURN_ALERT_HOST_TEXT } from './formText';
import { namedRecipientOptions } from './recipientChoices';

/** One side of a "Review changes" diff: a title and the JSON shown read-only. */
export interface ReviewSide {
  title: string;
  value: unknown;
}

export interface BurnAlertFormDeps {
  /** The connection's client, asked for at each request (a restarted sandbox has a new one). */
  client: ClientSource<
    Pick<ServiceClient, 'getBurnAlert' | 'listBurnAlerts' | 'updateBurnAlert' | 'listTriggers' | 'listRecipients'>
  >;
  context: BurnAlertContext;
  connectionName: string;
  /** The alert as the tree showed it, or as the form had it before a window reload. */
  loaded?: BurnAlert;
  /** True when `loaded` comes from a form restored after a window reload (its edits are relative to it). */
  restored?: boolean;
  /** Edits kept from this form's panel closed without saving: offered back with the first `init`. */
  unsaved?: Unsaved<BurnAlertState>;
  post(message: BurnAlertToWebview): void;
  log: FormLog;
  /** Opens a diff of two read-only JSON documents (vscode.diff in the extension). */
  openDiff(left: ReviewSide, right: ReviewSide, title: string): Promise<void>;
  /** Closes the diffs this form opened: after a save they compare what no longer holds. */
  closeDiffs?(): Promise<void>;
  /** The alert was saved: as the service answered, over what was read and sent. */
  onChanged?(saved: BurnAlert & { id: string }): void;
}

export class BurnAlertFormController extends FormController<BurnAlertFromWebview, BurnAlertToWebview> {
  private loaded: BurnAlert | undefined;
  private options: RecipientOption[] | undefined;
  /** The ids of the team's recipients, once listed; undefined while the list could not be read. */
  private listedIds: string[] | undefined;
  /** A body held back because the alert changed on the service, with the version found there. */
  private pending: { body: UpdateBurnAlertRequest; current: BurnAlert } | undefined;
  /** Whether the service serves GET of one alert; 'unavailable' after a 404/405 for an alert the list has. */
  private singleGet: 'untried' | 'served' | 'unavailable' = 'untried';
  /** Whether the page was sent the alert (an `init`); until then a connection coming back loads it. */
  private initSent = false;

  /** Edits kept from a closed panel, until the first init offers them. */
  private unsaved: Unsaved<BurnAlertState> | undefined;

  constructor(private readonly deps: BurnAlertFormDeps) {
    super('burn alert', BurnAlertFromWebview, deps.post, deps.log, resolveBurnAlertField, deps.connectionName);
    this.loaded = deps.loaded;
    this.unsaved = deps.unsaved;
  }

  protected async handle(message: BurnAlertFromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.once('load', () => this.load());
      case 'submit':
        return this.once('save', () => this.submit(message.edits));
      case 'review':
        return this.review(message.edits);
      case 'reviewConflict':
        if (this.pending) {
          await this.deps.openDiff(
            { title: BURN_ALERT_HOST_TEXT.conflictTheirs, value: burnAlertForReview(this.pending.current, {}) },
            { title: BURN_ALERT_HOST_TEXT.conflictMine, value: this.pending.body },
            BURN_ALERT_HOST_TEXT.conflictTitle(this.deps.context.alertId),
          );
        }
        return;
      case 'resolveConflict':
        return this.once('resolve', () => this.resolve(message.choice));
      case 'draft':
        return this.noteDraft(message.state);
    }
  }

  /**
   * The alert as it is on the service now: GET of the one alert, with its recipients (service facts). Where
   * the service answers that call with 404 or 405 for an alert its list has, the list is used, from then
   * on, and the alert's recipients are not known.
   */
  private async fetchCurrent(): Promise<BurnAlert | undefined> {
    const { dataset, sloId, alertId } = this.deps.context;
    const signal = this.abort.signal;
    const client = await this.deps.client();
    if (this.singleGet !== 'unavailable') {
      try {
        const res = await client.getBurnAlert(dataset, alertId, { signal });
        this.singleGet = 'served';
        return res.data;
      } catch (err) {
        const status = httpStatusOf(err);
        if (status !== 404 && status !== 405) throw err;
        if (status === 405) this.singleGet = 'unavailable';
        // A 404 from a call the service served before: the alert is gone.
        else if (this.singleGet === 'served') return undefined;
      }
    }
    const listed = (await client.listBurnAlerts(dataset, sloId, { signal })).data.find((a) => a.id === alertId);
    if (listed !== undefined && this.singleGet !== 'unavailable') {
      this.singleGet = 'unavailable';
      this.log.info(
        `burn alert form: the service does not serve one alert by id; the recipients of ${alertId} are unknown`,
      );
    }
    return listed;
  }

  private async load(): Promise<void> {
    try {
      // The tree's alert comes from the list, which carries no recipients (spec 4.3): read the alert itself.
      const given = this.loaded;
      if (given === undefined || given.recipients === undefined) {
        const current = await this.fetchCurrent();
        if (current === undefined && given === undefined) {
          this.post({
            type: 'status',
            message: BURN_ALERT_HOST_TEXT.notFound(this.deps.context.alertId, this.deps.context.sloId),
            failed: true,
          });
          return;
        }
        // A restored form's edits are relative to its version: a newer one waits for the check at Save.
        if (current !== undefined && (given === undefined || !this.deps.restored || isSameVersion(given, current)))
          this.loaded = current;
      }
      this.options ??= await this.gatherRecipients();
      this.sendInit(false);
    } catch (err) {
      this.log.warn(`burn alert form: loading failed: ${errorText(err)}`);
      const problems = this.problemsOf(err);
      this.post({ type: 'status', message: BURN_ALERT_HOST_TEXT.couldNotLoad(problems.form.join(' ')), failed: true });
    }
  }

  protected override reconnected(): void {
    if (!this.initSent) void this.once('load', () => this.load());
  }

  private sendInit(discardEdits: boolean): void {
    if (!this.loaded) return;
    this.initSent = true;
    // Said so a support log shows which alert a form showed, and when.
    this.log.info(`burn alert form: showing ${this.deps.context.alertId} of ${this.deps.context.dataset}`);
    // Edits kept from a closed panel are offered once: a later init (a reload) starts from the service.
    const unsaved = discardEdits ? undefined : this.unsaved;
    this.unsaved = undefined;
    this.post({
      type: 'init',
      context: this.deps.context,
      connectionName: this.deps.connectionName,
      loaded: this.loaded,
      recipientOptions: this.options ?? [],
      ...(this.listedIds ? { listedRecipientIds: this.listedIds } : {}),
      discardEdits,
      ...(unsaved ? { unsaved } : {}),
    });
  }

  /**
   * The team's recipients by type and name (GET /1/recipients), and the ids the environment already uses
   * (the SLO's burn alerts, the dataset's triggers) that the team's list does not hold. A list that fails to
   * load or is refused only narrows the choice (logged), it never stops the form.
   */
  private async gatherRecipients(): Promise<RecipientOption[]> {
    const client = await this.deps.client();
    const team = client.listRecipients({ signal: this.abort.signal }).then(
      (r) => r.data,
      (err: unknown) => {
        this.log.warn(`burn alert form: could not list the team's recipients: ${errorText(err)}`);
        return undefined;
      },
    );
    const seen = await this.recipientsInUse(client);
    const listed = await team;
    this.listedIds = listed?.map((r) => r.id);
    return namedRecipientOptions(listed, seen);
  }

  /** Recipients the environment already uses, from the SLO's burn alerts and the dataset's triggers. */
  private async recipientsInUse(
    client: Pick<ServiceClient, 'listBurnAlerts' | 'listTriggers'>,
  ): Promise<RecipientOption[]> {
    const { dataset, sloId } = this.deps.context;
    const lists: (readonly Recipient[] | undefined)[] = [this.loaded?.recipients];
    const sources: [string, () => Promise<(readonly Recipient[] | undefined)[]>][] = [
      [
        'burn alerts',
        async () =>
          (await client.listBurnAlerts(dataset, sloId, { signal: this.abort.signal })).data.map((a) => a.recipients),
      ],
      [
        'triggers',
        async () => (await client.listTriggers(dataset, { signal: this.abort.signal })).data.map((t) => t.recipients),
      ],
    ];
    if (dataset !== ENVIRONMENT_WIDE) {
      sources.push([
        'environment-wide triggers',
        async () =>
          (await client.listTriggers(ENVIRONMENT_WIDE, { signal: this.abort.signal })).data.map((t) => t.recipients),
      ]);
    }
    const results = await Promise.allSettled(sources.map(([, load]) => load()));
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') lists.push(...r.value);
      else this.log.warn(`burn alert form: could not list ${sources[i]?.[0]} for recipients: ${errorText(r.reason)}`);
    });
    return recipientOptions(lists);
  }

  private async submit(edits: BurnAlertEdits): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    const checked = checkBurnAlertUpdate(loaded, edits);
    if (!checked.ok) {
      this.postProblems(checked.reason);
      return;
    }
    await this.request('save', BURN_ALERT_HOST_TEXT.checking, async () => {
      const current = await this.fetchCurrent();
      if (current === undefined) {
        this.postProblems(formProblem(BURN_ALERT_HOST_TEXT.gone(this.deps.context.alertId)));
        return;
      }
      if (!isSameVersion(loaded, current)) {
        this.pending = { body: checked.body, current };
        this.log.info(`burn alert ${loaded.id} changed on the service since the form opened; asking the user`);
        this.post({ type: 'conflict', current, mine: checked.body });
        return;
      }
      this.post({ type: 'busy', busy: true, label: BURN_ALERT_HOST_TEXT.saving });
      await this.put(checked.body);
    });
  }

  private async put(body: UpdateBurnAlertRequest): Promise<void> {
    const { dataset, alertId } = this.deps.context;
    const res = await (await this.deps.client()).updateBurnAlert(dataset, alertId, body, { signal: this.abort.signal });
    // The response may leave out members the body carried (4.4 lists no budget_rate fields): keep them.
    const next = parseBurnAlert({ ...this.loaded, ...body, ...res.data });
    this.loaded = next ?? res.data;
    this.pending = undefined;
    this.log.info(`updated burn alert ${alertId} in ${dataset}`);
    this.post({ type: 'saved', loaded: this.loaded });
    this.deps.onChanged?.({ ...this.loaded, id: alertId });
    // Saved whatever happens to the diff tabs: a failure to close them is only logged.
    await this.deps
      .closeDiffs?.()
      .catch((err: unknown) => this.log.warn(`burn alert form: could not close its review diffs: ${errorText(err)}`));
  }

  private async resolve(choice: 'overwrite' | 'reload' | 'cancel'): Promise<void> {
    const pending = this.pending;
    if (!pending) {
      this.log.warn('burn alert form: a conflict choice arrived with no conflict open');
      return;
    }
    if (choice === 'cancel') {
      this.pending = undefined;
      this.post({ type: 'status', message: BURN_ALERT_HOST_TEXT.nothingSaved });
      return;
    }
    if (choice === 'reload') {
      this.pending = undefined;
      this.loaded = pending.current;
      this.sendInit(true);
      return;
    }
    await this.request('overwrite', BURN_ALERT_HOST_TEXT.saving, () => this.put(pending.body));
  }

  private async review(edits: BurnAlertEdits): Promise<void> {
    if (!this.loaded) return;
    await this.deps.openDiff(
      { title: BURN_ALERT_HOST_TEXT.reviewCurrent, value: burnAlertForReview(this.loaded, {}) },
      { title: BURN_ALERT_HOST_TEXT.reviewMine, value: burnAlertForReview(this.loaded, edits) },
      BURN_ALERT_HOST_TEXT.reviewTitle(this.deps.context.alertId),
    );
  }
}

/** The HTTP status of a failed service call (the client may come from another bundle: no instanceof). */
function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { kind, status } = err as { kind?: unknown; status?: unknown };
  return kind === 'http' && typeof status === 'number' ? status : undefined;
}
