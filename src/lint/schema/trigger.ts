// Writing a trigger (spec 2.6, 2.6.1, part 8; service facts). `TriggerWrite` is strict: it is the
// single source of the linter's rules and of schemas/trigger.schema.json. Member checks are zod
// checks; the relational rules of 2.6.1 are one refinement whose issues carry their rule id in `params.rule`.
import * as l10n from '@vscode/l10n';
import * as z from 'zod';
import { EVALUATION_SCHEDULE_TYPES, NOT_BLANK_PATTERN, TRIGGER_ALERT_TYPES, TRIGGER_LIMITS } from './limits';
import { BaselineDetailsWrite, EvaluationScheduleWrite, readOnly, TagWrite, ThresholdWrite } from './members';
import { TriggerQueryWrite } from './query';
import { TriggerRecipientWrite } from './recipients';
import type { MetricsDatasetHint, TriggerForm } from '../types';
import { checkTriggerRelations, NEUTRAL_METRICS_DATASET_HINT } from './relations';
import type { Report } from './relationWords';
import { expected, member, oneOf, says, strict, worded, type Words } from './wording';

const nameAllowed: Words = () =>
  l10n.t('a string of {0} to {1} characters, not blank', TRIGGER_LIMITS.nameMin, TRIGGER_LIMITS.nameMax);
// A blank name is within the lengths, so its problem is said as such, not as a value "not allowed".
const blankName = {
  error: () => worded(() => expected(l10n.t('{0} is blank (only white space)', 'name'), nameAllowed())),
};
const descriptionAllowed: Words = () => l10n.t('a string of at most {0} characters', TRIGGER_LIMITS.descriptionMax);
const frequencyAllowed: Words = () =>
  l10n.t(
    'a whole number of seconds from {0} to {1}, a multiple of {2}',
    TRIGGER_LIMITS.frequencyMin,
    TRIGGER_LIMITS.frequencyMax,
    TRIGGER_LIMITS.frequencyStep,
  );
const recipientsAllowed: Words = () => l10n.t('an array of recipients');
const triggerId: Words = () => l10n.t('the id of the trigger on the service');
const datasetSlug: Words = () => l10n.t('a dataset slug');
const savedQueryId: Words = () => l10n.t('the id of a saved query');

/** The members of a trigger in a create or update body; relations are checked by `triggerWriteSchema`. */
export const TriggerWriteObject = strict(
  () => l10n.t('the trigger'),
  () => l10n.t('a trigger object'),
  {
    id: z
      .string(says(member('id'), triggerId))
      .min(1, says(member('id'), triggerId))
      .nullable()
      .optional()
      .describe(
        'The id of the trigger on the service: it links the file to that trigger (pull and export write it). The service assigns it and ignores it on write.',
      ),
    dataset_slug: z
      .string(says(member('dataset_slug'), datasetSlug))
      .min(1, says(member('dataset_slug'), datasetSlug))
      .optional()
      .describe('Slug of the dataset the trigger belongs to; `all` for environment-wide triggers.'),
    name: z
      .string(says(member('name'), nameAllowed))
      .min(TRIGGER_LIMITS.nameMin, says(member('name'), nameAllowed))
      .max(TRIGGER_LIMITS.nameMax, says(member('name'), nameAllowed))
      .regex(NOT_BLANK_PATTERN, blankName)
      .describe(
        `Shown in the UI and when the trigger fires. Length ${TRIGGER_LIMITS.nameMin} to ${TRIGGER_LIMITS.nameMax}, not blank.`,
      ),
    description: z
      .string(says(member('description'), descriptionAllowed))
      .max(TRIGGER_LIMITS.descriptionMax, says(member('description'), descriptionAllowed))
      .optional()
      .describe(`Maximum length ${TRIGGER_LIMITS.descriptionMax}.`),
    tags: z
      .array(
        TagWrite,
        says(member('tags'), () => l10n.t('an array of at most {0} tags', TRIGGER_LIMITS.tagsMax)),
      )
      .max(
        TRIGGER_LIMITS.tagsMax,
        says(member('tags'), () => l10n.t('at most {0} tags', TRIGGER_LIMITS.tagsMax)),
      )
      .optional()
      .describe(`Each has key and value (strings). Maximum ${TRIGGER_LIMITS.tagsMax} items.`),
    threshold: ThresholdWrite,
    frequency: z
      .number(says(member('frequency'), frequencyAllowed))
      .int(says(member('frequency'), frequencyAllowed))
      .min(TRIGGER_LIMITS.frequencyMin, says(member('frequency'), frequencyAllowed))
      .max(TRIGGER_LIMITS.frequencyMax, says(member('frequency'), frequencyAllowed))
      .multipleOf(TRIGGER_LIMITS.frequencyStep, says(member('frequency'), frequencyAllowed))
      .optional()
      .meta({ default: TRIGGER_LIMITS.frequencyDefault })
      .describe(
        `Seconds between evaluations of the query calculation against the threshold. Minimum ${TRIGGER_LIMITS.frequencyMin}, maximum ${TRIGGER_LIMITS.frequencyMax}, multiple of ${TRIGGER_LIMITS.frequencyStep}, default ${TRIGGER_LIMITS.frequencyDefault}. The query duration must satisfy duration <= frequency * ${TRIGGER_LIMITS.timeRangeFactor}.`,
      ),
    alert_type: z
      .enum(TRIGGER_ALERT_TYPES, says(member('alert_type'), oneOf(TRIGGER_ALERT_TYPES)))
      .optional()
      .meta({ default: 'on_change' })
      .describe(
        'on_change (default): one notification at the crossing; on_true: a notification at every frequency interval while the threshold is met.',
      ),
    disabled: z
      .boolean(says(member('disabled'), () => l10n.t('{0} or {1}', 'true', 'false')))
      .optional()
      .meta({ default: false })
      .describe('Default false. When true the trigger is not evaluated and sends no alerts.'),
    triggered: readOnly('True while the trigger is over its threshold.'),
    recipients: z
      .array(TriggerRecipientWrite, says(member('recipients'), recipientsAllowed))
      .optional()
      .describe('Who is notified when the trigger fires. Name each by id; type plus target is deprecated.'),
    evaluation_schedule_type: z
      .enum(EVALUATION_SCHEDULE_TYPES, says(member('evaluation_schedule_type'), oneOf(EVALUATION_SCHEDULE_TYPES)))
      .optional()
      .meta({ default: 'frequency' })
      .describe(
        'frequency (default; runs at the frequency) or window (runs at the frequency, only inside the window given in evaluation_schedule).',
      ),
    evaluation_schedule: EvaluationScheduleWrite.nullable()
      .optional()
      .describe(
        'The window in which the trigger runs; needed when evaluation_schedule_type is window, without effect otherwise.',
      ),
    created_at: readOnly('Creation time.'),
    updated_at: readOnly('Last update time.'),
    baseline_details: BaselineDetailsWrite.nullable()
      .optional()
      .describe(
        'Extra settings for a dynamic baseline threshold: type and offset_minutes; the threshold is then >= 0 or <= 0.',
      ),
    query: TriggerQueryWrite.nullable()
      .optional()
      .describe('Inline query specification; give exactly one of query and query_id.'),
    query_id: z
      .string(says(member('query_id'), savedQueryId))
      .min(1, says(member('query_id'), savedQueryId))
      .nullable()
      .optional()
      .describe(
        'Id of an existing saved query that meets the same requirements as an inline query. Exactly one of query and query_id is given.',
      ),
  },
).describe('A trigger as created or updated.');

/** Datasets the query runs on decide which rules of 2.6.1 rules 8 and 9 apply. */
export interface TriggerWriteOptions {
  /** Dataset slugs that are metrics datasets; every other dataset is standard. */
  metricsDatasets?: readonly string[];
  /** How the caller's users declare a metrics dataset; a neutral wording without it. */
  metricsDatasetHint?: MetricsDatasetHint;
  /** `listed`: the trigger as the service lists it, not a file to write (see LintOptions.form). */
  form?: TriggerForm;
}

/** The relational rules of spec 2.6 and 2.6.1 for the given datasets: each issue goes to `report`. */
export function relationRules(options: TriggerWriteOptions = {}): (trigger: unknown, report: Report) => void {
  const metrics = new Set(options.metricsDatasets ?? []);
  const isMetrics = (slug: string | undefined) => slug !== undefined && metrics.has(slug);
  const hint = options.metricsDatasetHint ?? NEUTRAL_METRICS_DATASET_HINT;
  const form = options.form ?? 'file';
  return (trigger, report) => checkTriggerRelations(trigger, isMetrics, hint, form, report);
}

/** The rules as a zod refinement: each issue is one of the refined schema's. */
function refinement(options: TriggerWriteOptions) {
  const rules = relationRules(options);
  return (trigger: unknown, ctx: z.core.$RefinementCtx) =>
    rules(trigger, (path, message, params) => {
      ctx.addIssue({ code: 'custom', path, message, params: { ...params }, continue: true });
    });
}

/**
 * The strict trigger write schema with the relational rules for the given datasets. The refinement
 * runs even when members are invalid (a half-typed file still gets every rule that applies).
 */
export function triggerWriteSchema(options: TriggerWriteOptions = {}) {
  return TriggerWriteObject.superRefine(refinement(options), { when: () => true });
}

/**
 * The relational rules alone, raised as triggerWriteSchema raises them: for a trigger whose members
 * TriggerWriteObject accepts, its issues are exactly those of triggerWriteSchema (the linter's fast path).
 */
export function triggerRelationsSchema(options: TriggerWriteOptions = {}) {
  return z.unknown().superRefine(refinement(options), { when: () => true });
}

/** Triggers on standard datasets. */
export const TriggerWrite = triggerWriteSchema();
export type TriggerWrite = z.input<typeof TriggerWriteObject>;
