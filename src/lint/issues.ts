// From zod issues to rule findings. Relational issues name their rule (params.rule); the built-in
// issues of member checks get it from the path of the member they are about.
import * as l10n from '@vscode/l10n';
import type { z } from 'zod';
import { MEMBER_SLOT, TRIGGER_REFUSED_OPS, type TriggerIssueParams } from './schema';
import { isRuleId, type RuleId } from './rules';
import type { JsonPath } from './types';
import { valueAt } from './util';
import { unnamedRecipientMessage } from './recipientNaming';

export interface Finding {
  rule: RuleId;
  /** Absolute path in the file. */
  at: JsonPath;
  /** How many of the last segments of `at` lie inside the trigger (the others name the trigger's place in the file). */
  inTrigger: number;
  message: string;
  params?: TriggerIssueParams;
}

/** The unknown members of one object: kept as one record, since an object may hold a million of them. */
export interface UnknownMembers {
  rule: 'trigger/unknown-member' | 'query/unknown-member';
  /** Absolute path of the object. */
  at: JsonPath;
  /** How many of the last segments of `at` lie inside the trigger. */
  inTrigger: number;
  keys: readonly string[];
  /** The message of every one of them, with MEMBER_SLOT where the member's name goes. */
  says: string;
}

/** The finding of one of a record's unknown members. */
export function unknownMember(group: UnknownMembers, key: string): Finding {
  return {
    rule: group.rule,
    at: [...group.at, key],
    inTrigger: group.inTrigger + 1,
    message: group.says.split(MEMBER_SLOT).join(quotedKey(key)),
  };
}

const RECIPIENT_NAMES = new Set<unknown>(['id', 'type', 'target']);

/**
 * The messages of the recipient schema, which the linter shares with the service client (src/api keeps its
 * English messages): worded here in the configured language, the same English as the client's.
 */
function recipientMessage(issue: z.core.$ZodIssue, recipient: unknown): string | undefined {
  const path = issue.path;
  if (path[0] !== 'recipients' || path.length !== 3) return undefined;
  const name = path[2];
  if (issue.code === 'custom' && (issue.params as { rule?: unknown } | undefined)?.rule === 'recipient-named') {
    return (
      unnamedRecipientMessage(recipient) ??
      l10n.t('a recipient needs an {0} (preferred) or both {1} and {2} (deprecated)', 'id', 'type', 'target')
    );
  }
  if (issue.code === 'too_small' && typeof name === 'string' && RECIPIENT_NAMES.has(name))
    return l10n.t('recipient {0} must not be empty', name);
  return undefined;
}

type Mapper = RuleId | ((issue: z.core.$ZodIssue, input: unknown) => RuleId);

/** Member path pattern (array indexes as `*`) to rule; a path without an entry takes its parent's. */
const RULE_BY_PATH = new Map<string, Mapper>([
  ['', 'json/root-type'],
  ['id', 'trigger/id'],
  ['dataset_slug', 'trigger/dataset-slug'],
  ['name', 'trigger/name'],
  ['description', 'trigger/description'],
  ['tags', 'trigger/tags'],
  ['tags.*.key', 'trigger/tag-key'],
  ['tags.*.value', 'trigger/tag-value'],
  ['threshold', 'trigger/threshold'],
  ['threshold.op', 'trigger/threshold-op'],
  ['threshold.value', 'trigger/threshold-value'],
  ['threshold.exceeded_limit', 'trigger/exceeded-limit'],
  ['frequency', 'trigger/frequency'],
  ['alert_type', 'trigger/alert-type'],
  ['disabled', 'trigger/disabled'],
  ['recipients', 'trigger/recipient'],
  // A recipient named by neither id nor type is the recipient's problem, told at its missing type.
  ['recipients.*.type', (issue) => (issue.code === 'custom' ? 'trigger/recipient' : 'trigger/recipient-type')],
  ['recipients.*.details.pagerduty_severity', 'trigger/pagerduty-severity'],
  ['recipients.*.details.variables.*.name', 'trigger/webhook-variable'],
  ['recipients.*.details.variables.*.value', 'trigger/webhook-variable'],
  ['evaluation_schedule_type', 'trigger/evaluation-schedule-type'],
  ['evaluation_schedule', 'trigger/evaluation-schedule'],
  ['evaluation_schedule.window.days_of_week', 'trigger/window-days'],
  ['evaluation_schedule.window.start_time', 'trigger/window-time'],
  ['evaluation_schedule.window.end_time', 'trigger/window-time'],
  ['baseline_details', 'trigger/baseline-details'],
  ['query', 'trigger/query-source'],
  ['query_id', 'trigger/query-source'],
  ['query.calculations', 'query/calculations'],
  [
    'query.calculations.*.op',
    (_issue, input) =>
      (TRIGGER_REFUSED_OPS as readonly unknown[]).includes(input)
        ? 'query/calculation-op-refused'
        : 'query/calculation-op-unknown',
  ],
  ['query.calculations.*.column', 'query/calculation-column'],
  ['query.calculations.*.filters', 'query/filters'],
  ['query.calculations.*.filter_combination', 'query/filters'],
  ['query.filters', 'query/filters'],
  ['query.filter_combination', 'query/filters'],
  ['query.breakdowns', 'query/breakdowns'],
  ['query.havings', (issue) => (issue.code === 'too_big' ? 'query/havings-max' : 'query/having')],
  ['query.havings.*', 'query/having'],
  ['query.formulas', (issue) => (issue.code === 'too_big' ? 'query/formulas-max' : 'query/formula')],
  ['query.formulas.*', 'query/formula'],
  ['query.calculated_fields', 'query/calculated-fields'],
  [
    'query.time_range',
    (issue) =>
      issue.code === 'too_small'
        ? 'query/time-range-min'
        : issue.code === 'too_big'
          ? 'query/time-range-max'
          : 'query/time-range',
  ],
  ['query.granularity', 'query/granularity-range'],
  ['query.orders', 'query/refused-member'],
  ['query.limit', 'query/refused-member'],
  ['query.start_time', 'query/refused-member'],
  ['query.end_time', 'query/refused-member'],
  ['query.usage_mode', 'query/refused-member'],
]);

function ruleForPath(issue: z.core.$ZodIssue, input: unknown): RuleId {
  const segments = issue.path.map((k) => (typeof k === 'number' ? '*' : String(k)));
  for (let n = segments.length; n >= 0; n--) {
    const mapper = RULE_BY_PATH.get(segments.slice(0, n).join('.'));
    if (mapper !== undefined) return typeof mapper === 'function' ? mapper(issue, input) : mapper;
  }
  return 'json/root-type';
}

/** A member name in a message: quoted, and cut short when long (a name may be a megabyte). */
export function quotedKey(key: string): string {
  return JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}...` : key);
}

const toJsonPath = (path: readonly PropertyKey[]): JsonPath => path.map((k) => (typeof k === 'number' ? k : String(k)));

/** The findings of one zod issue about `trigger`, which lies at `prefix` in the file (unknown members: one record). */
export function findingsOf(issue: z.core.$ZodIssue, trigger: unknown, prefix: JsonPath): Finding[] | UnknownMembers {
  const path = toJsonPath(issue.path);
  const at = prefix.length === 0 ? path : [...prefix, ...path];
  if (issue.code === 'unrecognized_keys') {
    return {
      rule: path[0] === 'query' ? 'query/unknown-member' : 'trigger/unknown-member',
      at,
      inTrigger: path.length,
      keys: issue.keys,
      says: issue.message,
    };
  }
  if (issue.code === 'custom') {
    // zod hands params over untyped, and custom issues of the shared recipient schema carry none: check the id.
    const params = issue.params as TriggerIssueParams | undefined;
    if (params !== undefined && isRuleId(params.rule))
      return [{ rule: params.rule, at, inTrigger: path.length, message: issue.message, params }];
  }
  return [
    {
      rule: ruleForPath(issue, valueAt(trigger, issue.path)),
      at,
      inTrigger: path.length,
      message: recipientMessage(issue, valueAt(trigger, issue.path.slice(0, 2))) ?? issue.message,
    },
  ];
}
