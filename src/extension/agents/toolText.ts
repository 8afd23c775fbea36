// What the editor shows while an agent tool runs ("Listing the columns of api-gateway"), and the question
// before an apply: the connection, the counts, and the plan itself, every change, as the editor's own Apply
// shows it. The plan's text comes from files and the service: it is shown in a code block whose fence no
// backtick run in it can close, so none of it is read as Markdown. No vscode import.
import * as l10n from '@vscode/l10n';
import type { ToolName } from '../../agentTools';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (input: unknown, name: string): string =>
  isRecord(input) && typeof input[name] === 'string' ? input[name] : '';

/** Text shown as Markdown, every character that could format or link written escaped. */
const markdownText = (text: string): string => text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`);

/** The progress line of a tool call, with the dataset it is about when it names one (the model's words: escaped). Every tool has its case: one more is a compile error until it has its words. */
export function invocationText(name: ToolName, input: unknown, connectionName: string): string {
  const dataset = markdownText(field(input, 'dataset').slice(0, 120));
  const connection = markdownText(connectionName);
  switch (name) {
    case 'obs_list_datasets':
      return l10n.t('Listing the datasets of {0}', connection);
    case 'obs_list_columns':
      return l10n.t('Listing the columns of {0} on {1}', dataset, connection);
    case 'obs_list_triggers':
      return l10n.t('Listing the triggers of {0} on {1}', dataset, connection);
    case 'obs_get_trigger':
      return field(input, 'path') === ''
        ? l10n.t('Reading a trigger of {0} on {1}', dataset, connection)
        : l10n.t('Reading the trigger file {0}', markdownText(field(input, 'path').slice(0, 200)));
    case 'obs_list_slos':
      return l10n.t('Listing the SLOs of {0} on {1}', dataset, connection);
    case 'obs_list_burn_alerts':
      return l10n.t('Listing the burn alerts of an SLO of {0} on {1}', dataset, connection);
    case 'obs_lint_trigger':
      return l10n.t('Linting a trigger');
    case 'obs_preview_trigger':
      return l10n.t('Previewing a trigger against the data of {0}', connection);
    case 'obs_run_query':
      return l10n.t('Running a saved query of {0} on {1}', dataset, connection);
    case 'obs_drift':
      return l10n.t('Comparing the trigger, burn alert and definitions files with {0}', connection);
    case 'obs_plan':
      return l10n.t('Planning the trigger, burn alert and definitions files against {0}', connection);
    case 'obs_noise':
      return l10n.t('Ranking the trigger files by the notifications they would have sent on {0}', connection);
    case 'obs_apply_plan':
      return l10n.t('Applying a plan to {0}', connection);
  }
}

/** A fenced code block holding `text` as it is: the fence is longer than any run of backticks in it. */
export function codeBlock(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text.replace(/\n$/, '')}\n${fence}`;
}

export interface ApplyQuestion {
  title: string;
  /** Markdown: what is asked, then the plan in a code block. */
  message: string;
}

/** Lines of the plan the chat's question shows before it points to the whole plan. */
const QUESTION_PLAN_LINES = 60;

/**
 * The question before an apply: the editor's own words (title and detail) and the plan document beneath, its
 * first lines; past them, how many more and a link (`documentLink`, a trusted command link) to the whole plan.
 */
export function applyQuestion(
  q: { message: string; detail: string },
  planText: string,
  documentLink?: string,
): ApplyQuestion {
  const lines = planText.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, QUESTION_PLAN_LINES).join('\n');
  const more = lines.length - Math.min(lines.length, QUESTION_PLAN_LINES);
  const rest =
    more === 0
      ? ''
      : `\n\n${markdownText(l10n.t('The plan goes on for {0} more lines.', more))}${documentLink === undefined ? '' : ` [${markdownText(l10n.t('Open the whole plan'))}](${documentLink})`}`;
  return { title: q.message, message: `${markdownText(q.detail)}\n\n${codeBlock(shown)}${rest}` };
}
