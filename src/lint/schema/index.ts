// The trigger write schema the linter checks with, and the JSON Schema is generated from.
export * from './limits';
export { MEMBER_SLOT, triggerIssueMessage } from './wording';
export type { TriggerIssueParams } from './relationWords';
export { relationRules, triggerRelationsSchema, triggerWriteSchema, TriggerWrite, TriggerWriteObject } from './trigger';
export { acceptsOf, type Accepts } from './accepts';
