// Public surface of the trigger linter (no vscode import: the extension adapts it).
export { lint, fixAll, DEFAULT_MAX_DIAGNOSTICS, MAX_MESSAGE_LENGTH } from './lint';
export {
  decodeTriggerFile,
  lintBytes,
  lintNamedDecoded,
  lintNamedText,
  lintSloDecoded,
  lintReport,
  type DecodedFile,
  type LintReport,
} from './decode';
export { fixAllSlo, lintSloText, sloFileKind, type SloFileKind } from './sloLint';
export { applyFixes } from './fixes';
export { RULES, RULES_DOC_PATH, ruleDocsAnchor, type RuleId, type Severity } from './rules';
export type {
  DatasetColumns,
  Diagnostic,
  KnownRecipient,
  LintOptions,
  MetricsDatasetHint,
  Range,
  TextEdit,
  TriggerForm,
} from './types';
