// Relational rules of spec 2.6 and 2.6.1: what one member of a trigger allows depends on another.
// They run as one refinement of the write schema; each issue carries its rule id in `params.rule`.
// Every message is one l10n.t sentence; member names, values and lists are its placeholder arguments.
// This module checks the trigger's members; queryRelations.ts checks its query, writeRelations.ts what the
// service refuses on write beyond the spec.
import * as l10n from '@vscode/l10n';
import { isDeprecatedRecipient } from '../../api/schemas/common';
import { TRIGGER_READ_ONLY_MEMBERS } from '../../api/schemas/trigger';
import type { MetricsDatasetHint, TriggerForm } from '../types';
import { isRecord } from '../util';
import { checkQueryRelations } from './queryRelations';
import { optionalText, present, setsBaseline, type Report } from './relationWords';
import { list, show } from './wording';
import { checkWriteRelations } from './writeRelations';

/** The hint when the caller gives none: the rules do not know whether a flag or a setting declares a metrics dataset. */
export const NEUTRAL_METRICS_DATASET_HINT: MetricsDatasetHint = () => l10n.t('declare it as one to the linter');

/** The read-only members a file is told about: `id` is not one of them, it links the file to the service's trigger. */
const REPORTED_READ_ONLY = TRIGGER_READ_ONLY_MEMBERS.filter((m) => m !== 'id');

/**
 * Relational rules of spec 2.6 and 2.6.1; reads the value defensively because it runs on invalid input too.
 * In the `listed` form (a trigger as the service lists it) what only a write must not carry is not reported:
 * read-only members, and the query_id the service lists beside an inline query.
 */
export function checkTriggerRelations(
  trigger: unknown,
  isMetrics: (slug: string | undefined) => boolean,
  metricsDatasetHint: MetricsDatasetHint,
  form: TriggerForm,
  report: Report,
): void {
  if (!isRecord(trigger)) return;
  if (form === 'file') checkReadOnly(trigger, report);
  checkQuerySource(trigger, form, report);
  checkSchedule(trigger, report);
  checkRecipients(trigger, report);
  checkBaselineThreshold(trigger, report);
  checkWriteRelations(trigger, report);
  if (isRecord(trigger.query)) {
    const slug = typeof trigger.dataset_slug === 'string' ? trigger.dataset_slug : undefined;
    // The caller words how to declare a metrics dataset; the rest of the sentence is the rules'.
    const metricsHint = () =>
      slug === undefined
        ? l10n.t('if the dataset is a metrics dataset, give {0} and {1}', 'dataset_slug', metricsDatasetHint(slug))
        : l10n.t('if {0} is a metrics dataset, {1}', slug, metricsDatasetHint(slug));
    checkQueryRelations(trigger, trigger.query, isMetrics(slug), metricsHint, report);
  }
}

/** Members the service sets and ignores on write. */
function checkReadOnly(trigger: Record<string, unknown>, report: Report): void {
  for (const member of REPORTED_READ_ONLY) {
    if (member in trigger) {
      report([member], l10n.t('{0} is read-only: the service sets it and ignores it on write', member), {
        rule: 'trigger/read-only-member',
      });
    }
  }
}

/** Exactly one of query and query_id (a listed trigger may carry both). */
function checkQuerySource(trigger: Record<string, unknown>, form: TriggerForm, report: Report): void {
  const hasQuery = present(trigger.query);
  const hasQueryId = present(trigger.query_id);
  if (!hasQuery && !hasQueryId) {
    report(
      [],
      l10n.t(
        'the trigger has neither {0} nor {1}; give exactly one: an inline query or the id of a saved query',
        'query',
        'query_id',
      ),
      {
        rule: 'trigger/query-source',
      },
    );
  } else if (hasQuery && hasQueryId && form === 'file') {
    report(
      ['query_id'],
      l10n.t(
        'the trigger has both {0} and {1}; give exactly one: an inline query or the id of a saved query',
        'query',
        'query_id',
      ),
      {
        rule: 'trigger/query-source',
        related: [{ path: ['query'], message: l10n.t('the inline query') }],
      },
    );
  }
}

/** A window schedule type needs a window; a window without it has no effect. */
function checkSchedule(trigger: Record<string, unknown>, report: Report): void {
  if (trigger.evaluation_schedule_type === 'window' && !present(trigger.evaluation_schedule)) {
    const message = l10n.t(
      '{0} is {1} but {2} is missing; give {2} with a window ({3})',
      'evaluation_schedule_type',
      'window',
      'evaluation_schedule',
      list(['days_of_week', 'start_time', 'end_time']),
    );
    report([], message, {
      rule: 'trigger/evaluation-schedule',
      related: [{ path: ['evaluation_schedule_type'], message: l10n.t('the schedule type') }],
    });
  }
  // A window with the frequency schedule type is ignored: the trigger runs around the clock, which
  // is rarely what whoever wrote the window meant. Which of the two to change is the user's call.
  const scheduleType = trigger.evaluation_schedule_type;
  if (!isRecord(trigger.evaluation_schedule) || (scheduleType !== undefined && scheduleType !== 'frequency')) return;
  const message =
    scheduleType === undefined
      ? l10n.t(
          '{0} has no effect: {1} is absent ({2}, the default), so the trigger runs at every frequency interval, also outside the window; set {1} to {3}, or remove {0}',
          'evaluation_schedule',
          'evaluation_schedule_type',
          'frequency',
          'window',
        )
      : l10n.t(
          '{0} has no effect: {1} is {2}, so the trigger runs at every frequency interval, also outside the window; set {1} to {3}, or remove {0}',
          'evaluation_schedule',
          'evaluation_schedule_type',
          'frequency',
          'window',
        );
  report(['evaluation_schedule'], message, {
    rule: 'trigger/evaluation-schedule-unused',
    related:
      scheduleType === undefined ? [] : [{ path: ['evaluation_schedule_type'], message: l10n.t('the schedule type') }],
  });
}

/** Recipients named by type and target, which spec 9 deprecates. */
function checkRecipients(trigger: Record<string, unknown>, report: Report): void {
  if (!Array.isArray(trigger.recipients)) return;
  trigger.recipients.forEach((r, i) => {
    // A recipient with an id is never deprecated: most are, and are passed over at once.
    if (
      isRecord(r) &&
      r.id === undefined &&
      isDeprecatedRecipient({ id: optionalText(r.id), type: optionalText(r.type), target: optionalText(r.target) })
    ) {
      const message = l10n.t(
        'recipient {0} {1} is named by {2} and {3}, which is deprecated; name it by {4}',
        show(r.type),
        show(r.target),
        'type',
        'target',
        'id',
      );
      report(['recipients', i], message, {
        rule: 'trigger/recipient-deprecated',
      });
    }
  });
}

/** With a baseline (not `{}`, which clears one) the threshold is >= 0 or more, or <= 0 or less. */
function checkBaselineThreshold(trigger: Record<string, unknown>, report: Report): void {
  const threshold = trigger.threshold;
  if (
    !setsBaseline(trigger.baseline_details) ||
    !isRecord(threshold) ||
    typeof threshold.value !== 'number' ||
    typeof threshold.op !== 'string'
  )
    return;
  const { op, value } = threshold;
  if ((op === '>=' && value >= 0) || (op === '<=' && value <= 0)) return;
  const message = l10n.t(
    '{0} {1} {2} does not suit a baseline; with {3} the threshold is >= with a value of 0 or more, or <= with a value of 0 or less',
    'threshold',
    op,
    value,
    'baseline_details',
  );
  report(['threshold'], message, {
    rule: 'trigger/baseline-threshold',
    related: [{ path: ['baseline_details'], message: l10n.t('the baseline') }],
  });
}
