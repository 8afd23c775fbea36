// The trigger write schema the linter checks with, and the JSON Schema is generated from.
export * from './limits';
export { MEMBER_SLOT, triggerIssueMessage } from './wording';
export { BaselineDetailsWrite, CalculationWrite, EvaluationScheduleWrite, EvaluationWindowWrite, FilterWrite, HavingWrite, ThresholdWrite } from './members';
export { TriggerQueryWrite } from './query';
export type { TriggerIssueParams } from './relationWords';
export { relationRules, triggerRelationsSchema, triggerWriteSchema, TriggerWrite, TriggerWriteFile, TriggerWriteObject, type TriggerWriteOptions } from './trigger';
export { acceptsOf, type Accepts } from './accepts';
