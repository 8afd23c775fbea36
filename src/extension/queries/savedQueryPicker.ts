// The dialogue of "Run Saved Query...": the dataset picked from the service's list, then one of its named
// saved queries. Typing stays possible at each step ("Enter a dataset slug...", "Enter a query id..."),
// and is the only way where the service will not list them; the input box then says why.
import * as vscode from 'vscode';
import { ENVIRONMENT_WIDE } from '../../api/schemas';
import { datasetChoices, queryChoices, type AccountApi, type Listing } from './savedQueryPicks';

interface Item extends vscode.QuickPickItem {
  /** The slug or query id; undefined for "Enter ...". */
  value?: string;
}

type Picked = { kind: 'value'; item: Item & { value: string } } | { kind: 'type'; reason?: string } | { kind: 'dismissed' };

interface PickSpec<T> {
  title: string;
  placeholder: string;
  /** Said instead of the placeholder when the list is empty. */
  emptyPlaceholder: string;
  enterLabel: string;
  load: (signal: AbortSignal) => Promise<Listing<T>>;
  item: (choice: T) => Item & { value: string };
}

/** A quick pick shown at once, busy while its items load; a failure to load rejects (and is reported as the command's). */
function pickFrom<T>(spec: PickSpec<T>): Promise<Picked> {
  const qp = vscode.window.createQuickPick<Item>();
  const enter: Item = { label: `$(edit) ${spec.enterLabel}`, alwaysShow: true };
  Object.assign(qp, { title: spec.title, placeholder: spec.placeholder, busy: true, ignoreFocusOut: true, matchOnDescription: true, matchOnDetail: true, items: [enter] });
  const controller = new AbortController();
  return new Promise<Picked>((resolve, reject) => {
    let done = false;
    const finish = (outcome: Picked | Error): void => {
      if (done) return;
      done = true;
      controller.abort();
      qp.dispose();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0];
      if (chosen === undefined) return;
      finish(chosen.value === undefined ? { kind: 'type' } : { kind: 'value', item: { ...chosen, value: chosen.value } });
    });
    qp.onDidHide(() => finish({ kind: 'dismissed' }));
    qp.show();
    spec.load(controller.signal).then(
      (listing) => {
        if (listing.kind === 'type') return finish({ kind: 'type', reason: listing.reason });
        qp.items = [...listing.items.map(spec.item), enter];
        if (listing.items.length === 0) qp.placeholder = spec.emptyPlaceholder;
        qp.busy = false;
      },
      (err: unknown) => finish(err instanceof Error ? err : new Error(String(err))),
    );
  });
}

const slugProblem = (v: string): string | undefined =>
  v.trim() === '' ? vscode.l10n.t('Enter a dataset slug') : /[/?#\s]/.test(v.trim()) ? vscode.l10n.t('A dataset slug has no "/", "?", "#" or spaces') : undefined;

/** The dataset of the saved query: picked from the service's datasets, or typed. */
export async function askDataset(api: AccountApi, title: string): Promise<string | undefined> {
  const picked = await pickFrom({
    title,
    placeholder: vscode.l10n.t('The dataset of the saved query ({0}: environment-wide)', ENVIRONMENT_WIDE),
    emptyPlaceholder: vscode.l10n.t('The service lists no datasets: enter a dataset slug'),
    enterLabel: vscode.l10n.t('Enter a dataset slug...'),
    load: (signal) => datasetChoices(api, signal),
    item: (c) => ({ label: c.label, description: c.description, ...(c.detail === undefined ? {} : { detail: c.detail }), value: c.slug }),
  });
  if (picked.kind === 'dismissed') return undefined;
  if (picked.kind === 'value') return picked.item.value;
  const prompt = vscode.l10n.t('Dataset slug (or {0} for an environment-wide query)', ENVIRONMENT_WIDE);
  const typed = await vscode.window.showInputBox({
    title,
    prompt: picked.reason === undefined ? prompt : vscode.l10n.t('The service did not list its datasets ({0}). {1}', picked.reason, prompt),
    ignoreFocusOut: true,
    validateInput: slugProblem,
  });
  return typed?.trim();
}

/** The saved query: one of the dataset's named saved queries (its name comes along, for the results panel), or an id typed. */
export async function askQuery(api: AccountApi, dataset: string, title: string): Promise<{ id: string; name?: string } | undefined> {
  const picked = await pickFrom({
    title,
    placeholder: vscode.l10n.t('A named saved query of {0}', dataset),
    emptyPlaceholder: vscode.l10n.t('{0} has no named saved queries: enter a query id', dataset),
    enterLabel: vscode.l10n.t('Enter a query id...'),
    load: (signal) => queryChoices(api, dataset, signal),
    item: (c) => ({ label: c.label, description: c.description, ...(c.detail === undefined ? {} : { detail: c.detail }), value: c.queryId }),
  });
  if (picked.kind === 'dismissed') return undefined;
  if (picked.kind === 'value') return { id: picked.item.value, name: picked.item.label };
  const prompt = vscode.l10n.t("Saved query id: a trigger's query_id, or the id the queries endpoint gave a saved query");
  const typed = await vscode.window.showInputBox({
    title,
    prompt: picked.reason === undefined ? prompt : vscode.l10n.t('The service did not list the named saved queries of {0} ({1}). {2}', dataset, picked.reason, prompt),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter the id of a saved query') : undefined),
  });
  return typed === undefined ? undefined : { id: typed.trim() };
}
