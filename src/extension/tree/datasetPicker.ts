// Choosing a dataset when a command runs without a tree item: the datasets the tree knows, or a typed slug.
import * as vscode from 'vscode';
import { ENVIRONMENT_WIDE } from '../../api/schemas/slugs';
import { safeLabel } from '../core/text';
import type { DatasetTreeModel } from './datasetTree';

/** Why text is not a dataset slug, or undefined when it is one (the API's schemas load when first asked). */
export async function slugProblem(value: string): Promise<string | undefined> {
  const { DatasetSlug } = await import('../../api/schemas');
  const r = DatasetSlug.safeParse(value.trim());
  return r.success ? undefined : (r.error.issues[0]?.message ?? vscode.l10n.t('invalid dataset slug'));
}

/** Datasets the tree knows (for pickers), the typed value allowed too; undefined when dismissed. */
export async function pickDataset(
  model: DatasetTreeModel,
  placeHolder: string,
  allowAll: boolean,
): Promise<string | undefined> {
  const roots = model.cachedChildren(undefined) ?? [];
  const slugs = roots
    .flatMap((n) => (n.kind === 'dataset' ? [n.slug] : []))
    .filter((s) => allowAll || s !== ENVIRONMENT_WIDE);
  const qp = vscode.window.createQuickPick();
  qp.placeholder = placeHolder;
  qp.items = slugs.map((s) => ({
    label: s === ENVIRONMENT_WIDE ? ENVIRONMENT_WIDE : safeLabel(s),
    description: s === ENVIRONMENT_WIDE ? vscode.l10n.t('environment-wide') : undefined,
  }));
  return new Promise((resolve) => {
    let done = false;
    qp.onDidChangeValue((v) => {
      const typed = v.trim();
      qp.items = [
        ...(typed !== '' && !slugs.includes(typed)
          ? [{ label: typed, description: vscode.l10n.t('type a dataset slug') }]
          : []),
        ...slugs.map((s) => ({ label: s })),
      ];
    });
    qp.onDidAccept(async () => {
      const chosen = qp.selectedItems[0]?.label ?? qp.value.trim();
      const problem = await slugProblem(chosen);
      if (problem) {
        qp.title = vscode.l10n.t('Not a dataset slug: {0}', problem);
        return;
      }
      done = true;
      resolve(chosen);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}
