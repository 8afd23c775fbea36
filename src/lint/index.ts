// Public surface of the trigger linter (no vscode import: the extension adapts it).
export { lint, fixAll, DEFAULT_MAX_DIAGNOSTICS, MAX_MESSAGE_LENGTH, type FixAllResult } from './lint';
export { decodeTriggerFile, lintBytes, lintDecoded, lintReport, type DecodedFile, type LintReport } from './decode';
export { applyFixes } from './fixes';
export { RULES, RULES_DOC_PATH, isRuleId, ruleDocsAnchor, ruleInfo, type RuleId, type RuleInfo, type Severity } from './rules';
export type { DatasetColumns, Diagnostic, Fix, JsonPath, KnownRecipient, LintOptions, MetricsDatasetHint, Position, Range, RelatedInformation, SyntaxKind, TextEdit, TriggerForm } from './types';
export { blockingReasons, type GateOptions } from './gate';
