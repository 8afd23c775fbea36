// The dialogue of "Run Saved Query...": the dataset picked from the service's list, then one of its named
// saved queries. Typing stays possible at each step ("Enter a dataset slug...", "Enter a query id..."),
// and is the only way where the service will not list them; the input box then says why. Text typed is
// never lost: what was typed into a pick goes on into the input box, and what was typed at a question
// (also when it was dismissed, or the pick failed to load) is where the same question starts next time.
import * as vscode from 'vscode';
import { ENVIRONMENT_WIDE } from '../../api/schemas';
import { datasetChoices, queryChoices, queryIdProblem } from './savedQueryPicks';
import type { AccountApi, Listing, TypedAnswers } from './savedQueryPicks';

interface Item extends vscode.QuickPickItem {
  /** The slug or query id; undefined for "Enter ...". */
  value?: string;
}

/** How a pick ended; `typed` is the text in its box then. */
type Picked =
  | { kind: 'value'; item: Item & { value: string } }
  | { kind: 'type'; typed: string; reason?: string }
  | { kind: 'dismissed'; typed: string };

interface PickSpec<T> {
  title: string;
  placeholder: string;
  /** Said instead of the placeholder when the list is empty. */
  emptyPlaceholder: string;
  enterLabel: string;
  load: (signal: AbortSignal) => Promise<Listing<T>>;
  item: (choice: T) => Item & { value: string };
  /** Keeps the text in the pick's box when the pick fails to load: its error is shown, the text is not lost. */
  keepTyped: (typed: string) => void;
}

/** A quick pick shown at once, busy while its items load; a failure to load rejects (and is reported as the command's). */
function pickFrom<T>(spec: PickSpec<T>): Promise<Picked> {
  const qp = vscode.window.createQuickPick<Item>();
  const enter: Item = { label: `$(edit) ${spec.enterLabel}`, alwaysShow: true };
  Object.assign(qp, {
    title: spec.title,
    placeholder: spec.placeholder,
    busy: true,
    ignoreFocusOut: true,
    matchOnDescription: true,
    matchOnDetail: true,
    items: [enter],
  });
  const controller = new AbortController();
  return new Promise<Picked>((resolve, reject) => {
    let done = false;
    const finish = (outcome: Picked | Error): void => {
      if (done) return;
      done = true;
      controller.abort();
      const typed = qp.value;
      qp.dispose();
      if (outcome instanceof Error) {
        spec.keepTyped(typed);
        reject(outcome);
      } else resolve(outcome);
    };
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0];
      if (chosen === undefined) return;
      const value = chosen.value;
      finish(value === undefined ? { kind: 'type', typed: qp.value } : { kind: 'value', item: { ...chosen, value } });
    });
    qp.onDidHide(() => finish({ kind: 'dismissed', typed: qp.value }));
    qp.show();
    spec.load(controller.signal).then(
      (listing) => {
        if (listing.kind === 'type') return finish({ kind: 'type', typed: qp.value, reason: listing.reason });
        qp.items = [...listing.items.map(spec.item), enter];
        if (listing.items.length === 0) qp.placeholder = spec.emptyPlaceholder;
        qp.busy = false;
      },
      (err: unknown) => finish(err instanceof Error ? err : new Error(String(err))),
    );
  });
}

interface TypeIn {
  title: string;
  prompt: string;
  /** The text the box starts with. */
  value: string;
  check: (text: string) => string | undefined;
  /** Said under the box while it holds `value` (the service's answer to it), without refusing it. */
  warning?: string;
  keep: (text: string) => void;
}

/** An input box whose text is kept as it is typed, so a dismissed box loses nothing. */
async function typeIn(o: TypeIn): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: o.title,
    prompt: o.prompt,
    value: o.value,
    valueSelection: [o.value.length, o.value.length],
    ignoreFocusOut: true,
    validateInput: (text) => {
      o.keep(text);
      const problem = o.check(text);
      if (problem !== undefined) return problem;
      if (o.warning === undefined || text !== o.value) return undefined;
      return { message: o.warning, severity: vscode.InputBoxValidationSeverity.Warning };
    },
  });
  if (typed !== undefined) o.keep(typed);
  return typed?.trim();
}

const slugProblem = (v: string): string | undefined =>
  v.trim() === ''
    ? vscode.l10n.t('Enter a dataset slug')
    : /[/?#\s]/.test(v.trim())
      ? vscode.l10n.t('A dataset slug has no "/", "?", "#" or spaces')
      : undefined;

/** The question a typed query id of `dataset` is kept under. */
const queryQuestion = (dataset: string): string => `query:${dataset}`;

/** The dataset of the saved query: picked from the service's datasets, or typed. */
export async function askDataset(api: AccountApi, title: string, typed: TypedAnswers): Promise<string | undefined> {
  const keep = (text: string): void => typed.keep('dataset', text);
  const picked = await pickFrom({
    title,
    placeholder: vscode.l10n.t('The dataset of the saved query ({0}: environment-wide)', ENVIRONMENT_WIDE),
    emptyPlaceholder: vscode.l10n.t('The service lists no datasets: enter a dataset slug'),
    enterLabel: vscode.l10n.t('Enter a dataset slug...'),
    load: (signal) => datasetChoices(api, signal),
    item: (c) => ({
      label: c.label,
      description: c.description,
      ...(c.detail === undefined ? {} : { detail: c.detail }),
      value: c.slug,
    }),
    keepTyped: keep,
  });
  if (picked.kind === 'value') return picked.item.value;
  if (picked.kind === 'dismissed') {
    if (picked.typed !== '') keep(picked.typed);
    return undefined;
  }
  const prompt = vscode.l10n.t('Dataset slug (or {0} for an environment-wide query)', ENVIRONMENT_WIDE);
  return typeIn({
    title,
    prompt:
      picked.reason === undefined
        ? prompt
        : vscode.l10n.t('The service did not list its datasets ({0}). {1}', picked.reason, prompt),
    value: picked.typed !== '' ? picked.typed : (typed.get('dataset') ?? ''),
    check: slugProblem,
    keep,
  });
}

/** The saved query: one of the dataset's named saved queries (its name comes along, for the results panel), or an id typed. */
export async function askQuery(
  api: AccountApi,
  dataset: string,
  title: string,
  typed: TypedAnswers,
): Promise<{ id: string; name?: string } | undefined> {
  const picked = await pickFrom({
    title,
    placeholder: vscode.l10n.t('A named saved query of {0}', dataset),
    emptyPlaceholder: vscode.l10n.t('{0} has no named saved queries: enter a query id', dataset),
    enterLabel: vscode.l10n.t('Enter a query id...'),
    load: (signal) => queryChoices(api, dataset, signal),
    item: (c) => ({
      label: c.label,
      description: c.description,
      ...(c.detail === undefined ? {} : { detail: c.detail }),
      value: c.queryId,
    }),
    keepTyped: (text) => typed.keep(queryQuestion(dataset), text),
  });
  if (picked.kind === 'value') return { id: picked.item.value, name: picked.item.label };
  if (picked.kind === 'dismissed') {
    if (picked.typed !== '') typed.keep(queryQuestion(dataset), picked.typed);
    return undefined;
  }
  const reason =
    picked.reason === undefined
      ? undefined
      : vscode.l10n.t('The service did not list the named saved queries of {0} ({1}).', dataset, picked.reason);
  const id = await askQueryId(title, dataset, typed, { value: picked.typed !== '' ? picked.typed : undefined, reason });
  return id === undefined ? undefined : { id };
}

/**
 * A saved query id typed: the box starts from `value` (else the id typed last for the dataset), checks the
 * id's form before anything is sent, and shows `problem` (the service's answer to that id) under it.
 */
export function askQueryId(
  title: string,
  dataset: string,
  typed: TypedAnswers,
  o: { value?: string; reason?: string; problem?: string },
): Promise<string | undefined> {
  const prompt = vscode.l10n.t(
    "Saved query id: a trigger's query_id, or the id the queries endpoint gave a saved query",
  );
  return typeIn({
    title,
    prompt: o.reason === undefined ? prompt : `${o.reason} ${prompt}`,
    value: o.value ?? typed.get(queryQuestion(dataset)) ?? '',
    check: queryIdProblem,
    ...(o.problem === undefined ? {} : { warning: o.problem }),
    keep: (text) => typed.keep(queryQuestion(dataset), text),
  });
}
