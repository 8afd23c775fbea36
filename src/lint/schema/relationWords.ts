// What the relational rules report, the scope of a query's rules, and the words their messages share (relations.ts checks the
// trigger's members against each other, queryRelations.ts and havingRelations.ts its query).
import * as l10n from '@vscode/l10n';
import type { RuleId } from '../rules';
import { isRecord } from '../util';
import { show } from './wording';

/** Extra data a relational issue carries for the linter. */
export interface TriggerIssueParams {
  /** Stable linter rule id; typed so that an id missing from the registry does not compile. */
  rule: RuleId;
  /** The value that makes the member valid, when exactly one is the obvious fix. */
  replaceWith?: number;
  /** The same for a string (a column name nearest to an unknown one). */
  replaceText?: string;
  /** Other places that explain the issue, relative to the trigger. */
  related?: { path: (string | number)[]; message: string }[];
}

export type Path = (string | number)[];
export type Report = (path: Path, message: string, params: TriggerIssueParams) => void;

export const present = (v: unknown) => v !== undefined && v !== null;
/** Whether baseline_details sets a baseline: `{}` clears one (service facts), null and absence leave none. */
export const setsBaseline = (v: unknown) => isRecord(v) && Object.keys(v).length > 0;
export const optionalText = (v: unknown) => (v === undefined ? undefined : show(v));
export const calcLabel = (op: unknown, column: unknown) =>
  typeof column === 'string' ? `${show(op)}(${column})` : show(op);
/** At most 10 of a list in a message: a query may hold thousands of calculations, and each message names them. */
export const someOf = (labels: readonly string[]) =>
  labels.length > 10
    ? l10n.t('{0} and {1} more', labels.slice(0, 10).join(', '), labels.length - 10)
    : labels.join(', ');
/** A list in a message, or the word for an empty one. */
export const someOrNone = (labels: readonly string[]) => someOf(labels) || l10n.t('none');
/** A member and its value, as in `frequency 900`: the same in every language. */
export const memberValue = (name: string, value: unknown) => [name, show(value)].join(' ');

/** A query and what its rules read around it. */
export interface QueryScope {
  trigger: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Whether the trigger's dataset is a metrics dataset. */
  metrics: boolean;
  /** How to declare the dataset a metrics dataset, in the caller's words. */
  metricsHint: () => string;
  report: Report;
  /** The query's lists; empty where a list is not an array. */
  calculations: unknown[];
  havings: unknown[];
  formulas: unknown[];
}

/** A path in the trigger's query. */
export const q = (...rest: Path): Path => ['query', ...rest];
