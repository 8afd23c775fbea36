// What the plan view shows of an apply, as its page draws it (webview/protocol/planView.ts): the plan's
// changes grouped by kind and action, each with its members old -> new, what is blocked and why, and once
// applied, each change's outcome in the user's words: what the service said, never the HTTP line the client
// logs. The same plan, names and values as the plan document the agents' apply shows (applyPlanText.ts).
// No vscode import.
import * as l10n from '@vscode/l10n';
import {
  changeKey,
  type ChangeResult,
  type FailureCause,
  type Plan,
  type PlanKind,
  type PlannedChange,
} from '../../triggerFiles';
import type {
  ChangeOutcome,
  PlanBlockedGroup,
  PlanChange,
  PlanConfirm,
  PlanGroup,
  PlanMember,
  PlanPhase,
  PlanViewModel,
} from '../../webview/protocol/planView';
import type { RecipientDirectory } from '../core/recipients';
import { capText } from '../core/text';
import {
  blockedWhere,
  changeLabel,
  changeNotes,
  createdValue,
  nothingText,
  planCountsText,
  planValue,
  reasonText,
  resultCountsText,
} from './applyPlanText';
import { recipientNote } from './driftPresentation';

/** A plan as it was reviewed: what the view needs besides the plan itself. */
export interface ReviewedPlan {
  plan: Plan;
  /** What could not be checked (the service does not list it to this key). */
  notes: readonly string[];
  /** The target connection's recipients, when known: recipient ids are named. */
  recipients?: RecipientDirectory | undefined;
  /** The plan is for a connection other than the active one: the files' ids are not its own. */
  idsIgnored: boolean;
  /** The connection looks like production: Apply asks for its name, typed. */
  production: boolean;
  /** The environment planned for (docs/ENVIRONMENTS.md): its name, its file, and whether the files hold its ids. */
  environment?: { name: string; file: string; home: boolean };
}

/** Where the review stands, besides its phase: the outcome of each change, why nothing was written, what runs now. */
export interface ReviewState {
  review: number;
  phase: PlanPhase;
  excluded: ReadonlySet<string>;
  results?: readonly ChangeResult[];
  /** Why nothing was written (phase not-applied). */
  stopped?: { text: string; differences: readonly string[] };
  busy?: string | null;
  /** The same files can be planned again: once the review is over. */
  canPlanAgain: boolean;
}

/** The order of the kinds in the view (the page's PLAN_KINDS; its module holds zod, which this bundle leaves out). */
const PLAN_KINDS = ['trigger', 'burn-alert', 'definitions'] as const satisfies readonly PlanKind[];

const connectionOf = (plan: Plan): string => plan.target.connection ?? plan.target.baseUrl;

/** The members a change writes: every member of a create, the members of an update that differ (old -> new). */
function membersOf(c: PlannedChange, recipients: RecipientDirectory | undefined): PlanMember[] {
  if (c.action === 'create')
    return Object.entries(c.body).map(([path, value]) => ({ path, after: createdValue(path, value, recipients) }));
  if (c.action === 'delete') return [];
  return c.differences.map((d) => {
    const note = recipientNote(d, recipients);
    return {
      path: capText(d.path, 200),
      before: planValue(d.service),
      after: planValue(d.local),
      ...(note === undefined ? {} : { note }),
    };
  });
}

function groupTitle(action: PlannedChange['action'], connection: string, n: number): string {
  if (action === 'create') return n === 1 ? l10n.t('1 trigger to create') : l10n.t('{0} triggers to create', n);
  if (action === 'update')
    return n === 1
      ? l10n.t("1 trigger to update ({0}'s value -> the file's value)", connection)
      : l10n.t("{0} triggers to update ({1}'s value -> the file's value)", n, connection);
  return n === 1
    ? l10n.t('1 trigger to delete from {0} (no trigger file holds it)', connection)
    : l10n.t('{0} triggers to delete from {1} (no trigger file holds them)', n, connection);
}

/** The heading of a kind's updates: burn alerts and definitions are only ever updated. */
function updateTitle(kind: Exclude<PlanKind, 'trigger'>, connection: string, n: number): string {
  if (kind === 'burn-alert')
    return n === 1
      ? l10n.t("1 burn alert to update ({0}'s value -> the file's value)", connection)
      : l10n.t("{0} burn alerts to update ({1}'s value -> the file's value)", n, connection);
  return n === 1
    ? l10n.t("1 dataset's definitions to update ({0}'s value -> the file's value)", connection)
    : l10n.t("{0} datasets' definitions to update ({1}'s value -> the file's value)", n, connection);
}

/** The heading of a kind's blocked entries. */
function blockedTitle(kind: PlanKind): string {
  if (kind === 'burn-alert') return l10n.t('Blocked burn alerts (never written)');
  if (kind === 'definitions') return l10n.t('Blocked definitions (never written)');
  return l10n.t('Blocked (never written)');
}

/** "the service could not be reached": why a write failed, from what the client said of it. */
function causeWords(cause: FailureCause): string {
  switch (cause.kind) {
    case 'network':
      return l10n.t('the service could not be reached');
    case 'timeout':
      return l10n.t('the service did not answer in time');
    case 'aborted':
      return l10n.t('the apply was cancelled');
    case 'request-validation':
      return l10n.t('it breaks a rule of the service, so it was not sent');
    case 'missing-credentials':
      return l10n.t('the connection has no usable configuration key');
    case 'http':
      return statusWords(cause.status);
    case 'other':
      return l10n.t('the extension failed while writing it (see the Observability log)');
    default:
      return l10n.t("the service's answer could not be read");
  }
}

function statusWords(status: number | undefined): string {
  if (status === 401) return l10n.t('the configuration key was not accepted');
  if (status === 403) return l10n.t('the configuration key may not write triggers');
  if (status === 404) return l10n.t('the service has no such dataset or trigger');
  if (status === 409) return l10n.t('it conflicts with what the service holds');
  if (status === 429) return l10n.t("the service's rate limit was reached");
  if (status !== undefined && status >= 500) return l10n.t('the service failed on its side');
  return l10n.t('the service did not take it as sent');
}

/** The service's own words when it gave any, else what its answer means. */
const saidOr = (cause: FailureCause): string => (cause.said === undefined ? causeWords(cause) : reasonText(cause.said));

/**
 * A change's outcome in the user's words: a headline, and its details (members refused, ids written, values
 * stored otherwise).
 */
export function outcomeOf(r: ChangeResult): ChangeOutcome {
  const a = r.change.action;
  switch (r.outcome) {
    case 'applied': {
      const headline =
        a === 'create' ? l10n.t('Created as {0}', r.id) : a === 'update' ? l10n.t('Updated') : l10n.t('Deleted');
      const stored = r.storedDifferently.map((d) =>
        l10n.t(
          '{0} stored differently (sent -> stored): {1} -> {2}',
          capText(d.path, 200),
          planValue(d.local),
          planValue(d.service),
        ),
      );
      return {
        outcome: 'applied',
        headline,
        details: [...(r.note === undefined ? [] : [reasonText(r.note)]), ...stored],
      };
    }
    case 'skipped':
      return { outcome: 'skipped', headline: l10n.t('Not written: {0}', reasonText(r.reason)), details: [] };
    case 'refused':
      return {
        outcome: 'refused',
        headline: l10n.t('Refused by the service: {0}', saidOr(r.cause)),
        details: r.members.map((m) => `${capText(m.field, 200)}: ${reasonText(m.message)}`),
      };
    case 'unverified':
      return {
        outcome: 'unverified',
        headline: l10n.t(
          'Written as {0}, but it could not be read back ({1}): what the service stored is not known; plan again to compare',
          r.id,
          causeWords(r.cause),
        ),
        details: [],
      };
    case 'unknown':
      return {
        outcome: 'unknown',
        headline: l10n.t(
          'Maybe written: the answer was lost ({0}); plan again to see what the service holds',
          causeWords(r.cause),
        ),
        details: [],
      };
    default:
      return { outcome: 'failed', headline: l10n.t('Not written: {0}', causeWords(r.cause)), details: [] };
  }
}

const EXCLUDED = (): ChangeOutcome => ({
  outcome: 'excluded',
  headline: l10n.t('Not written: you left it out of this apply'),
  details: [],
});

interface ChangeContext {
  reviewed: ReviewedPlan;
  state: ReviewState;
  results: ReadonlyMap<string, ChangeResult>;
}

function changeView(c: PlannedChange, ctx: ChangeContext): PlanChange {
  const key = changeKey(c);
  const excluded = ctx.state.excluded.has(key);
  const result = ctx.results.get(key);
  const outcome =
    result !== undefined ? outcomeOf(result) : excluded && ctx.state.phase === 'applied' ? EXCLUDED() : undefined;
  // Compare and a delete's service version are of the active connection: on another one they would show another
  // trigger.
  const active = !ctx.reviewed.idsIgnored;
  return {
    key,
    action: c.action,
    kind: c.kind,
    label: changeLabel(c),
    ...(c.action === 'delete' ? {} : { file: c.file }),
    notes: changeNotes(c, ctx.reviewed.idsIgnored),
    members: membersOf(c, ctx.reviewed.recipients),
    excluded,
    canOpen: c.action !== 'delete' || active,
    // Compare with Service is the diff of a trigger file's trigger.
    canCompare: c.kind === 'trigger' && c.action === 'update' && active,
    ...(outcome === undefined ? {} : { result: outcome }),
  };
}

/** The changes by kind (triggers, burn alerts, definitions), and within a kind by action: create, update, delete. */
function groupsOf(ctx: ChangeContext): PlanGroup[] {
  const connection = connectionOf(ctx.reviewed.plan);
  return PLAN_KINDS.flatMap((kind) =>
    (['create', 'update', 'delete'] as const).flatMap((action) => {
      const changes = ctx.reviewed.plan.changes.filter((c) => c.kind === kind && c.action === action);
      if (changes.length === 0) return [];
      const title =
        kind === 'trigger'
          ? groupTitle(action, connection, changes.length)
          : updateTitle(kind, connection, changes.length);
      return [{ action, kind, title, changes: changes.map((c) => changeView(c, ctx)) }];
    }),
  );
}

/** What is blocked and why, by kind in the order of the changes; a kind with nothing blocked left out. */
function blockedOf(plan: Plan): PlanBlockedGroup[] {
  return PLAN_KINDS.flatMap((kind) => {
    const entries = plan.blocked
      .filter((b) => b.kind === kind)
      .map((b) => ({ where: blockedWhere(b), reasons: b.reasons.map(reasonText) }));
    return entries.length === 0 ? [] : [{ kind, title: blockedTitle(kind), entries }];
  });
}

/** How many of the plan's changes an apply would write now: those not excluded. */
export function countKept(plan: Plan, excluded: ReadonlySet<string>): number {
  return plan.changes.filter((c) => !excluded.has(changeKey(c))).length;
}

function confirmOf(reviewed: ReviewedPlan, excluded: ReadonlySet<string>): PlanConfirm {
  const connection = connectionOf(reviewed.plan);
  const count = countKept(reviewed.plan, excluded);
  const label =
    count === 1 ? l10n.t('Apply 1 change to {0}', connection) : l10n.t('Apply {0} changes to {1}', count, connection);
  return { label, count, ...(reviewed.production ? { typeName: connection } : {}) };
}

function statusOf(reviewed: ReviewedPlan, state: ReviewState): PlanViewModel['status'] {
  const plan = reviewed.plan;
  const connection = connectionOf(plan);
  switch (state.phase) {
    case 'review':
      return plan.changes.length === 0
        ? { text: nothingText(plan), tone: 'warning' }
        : { text: l10n.t('Nothing is written until you confirm.'), tone: 'info' };
    case 'applying':
      return {
        text: l10n.t(
          'Applying to {0}: the plan is made again and written only if it is still the one shown.',
          connection,
        ),
        tone: 'info',
      };
    case 'applied': {
      const results = state.results ?? [];
      const clean = results.every((r) => r.outcome === 'applied' && r.storedDifferently.length === 0);
      return {
        text: l10n.t('Applied to {0}: {1}.', connection, resultCountsText(results)),
        tone: clean ? 'success' : 'warning',
      };
    }
    default:
      return { text: state.stopped?.text ?? l10n.t('Nothing was written to {0}.', connection), tone: 'warning' };
  }
}

/** What the view is: a plan, or once its review is over, what became of it. */
function titleOf(phase: PlanPhase, connection: string, baseUrl: string): string {
  if (phase === 'applied') return l10n.t('Applied: the trigger files to {0} ({1})', connection, baseUrl);
  if (phase === 'not-applied') return l10n.t('Not applied: the trigger files to {0} ({1})', connection, baseUrl);
  return l10n.t('Plan: apply the trigger files to {0} ({1})', connection, baseUrl);
}

/** The view of a reviewed plan in the state it is in. */
/** What planning for an environment means, said above the plan. */
function environmentNote(env: NonNullable<ReviewedPlan['environment']>): string {
  return env.home
    ? l10n.t(
        'Planned for the environment {0} of {1}, the home environment: the files hold its ids.',
        env.name,
        env.file,
      )
    : l10n.t(
        "Planned for the environment {0} of {1}: each trigger as that environment sees it (its datasets, recipients and overrides), matched by dataset and name; a created trigger's id is not written into its file, which holds the home environment's ids.",
        env.name,
        env.file,
      );
}

export function planViewModel(reviewed: ReviewedPlan, state: ReviewState): PlanViewModel {
  const plan = reviewed.plan;
  const connection = connectionOf(plan);
  const results = new Map((state.results ?? []).map((r) => [changeKey(r.change), r]));
  const ctx = { reviewed, state, results };
  const read =
    plan.files.length === 1
      ? l10n.t('1 file read: {0}', planCountsText(plan))
      : l10n.t('{0} files read: {1}', plan.files.length, planCountsText(plan));
  const idsNote = l10n.t(
    "{0} is not the active connection: the files' ids are not its own, so each trigger is matched by dataset and name, and a created trigger's id is not written into its file.",
    connection,
  );
  const reviewing = state.phase === 'review' && plan.changes.length > 0;
  return {
    review: state.review,
    phase: state.phase,
    connection,
    title: titleOf(state.phase, connection, plan.target.baseUrl),
    counts: read,
    notes:
      reviewed.environment !== undefined
        ? [environmentNote(reviewed.environment)]
        : reviewed.idsIgnored
          ? [idsNote]
          : [],
    groups: groupsOf(ctx),
    blocked: blockedOf(plan),
    unchecked: reviewed.notes.map(reasonText),
    status: statusOf(reviewed, state),
    differences: (state.stopped?.differences ?? []).map(reasonText),
    ...(reviewing ? { confirm: confirmOf(reviewed, state.excluded) } : {}),
    busy: state.busy ?? null,
    canPlanAgain: state.canPlanAgain,
  };
}
