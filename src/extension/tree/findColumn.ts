// Find Column: one column by its exact key name. No vscode import.
import type { ServiceClient } from '../../api/client';
import type { Column } from '../../api/schemas';
import { asServiceError } from '../core/errors';
import * as l10n from '@vscode/l10n';

export type ColumnLookup = Pick<ServiceClient, 'getColumn'>;

/**
 * The column named `keyName`, or null when the service answers 404: "no such column" is an answer to
 * show as information, not an error. Every other failure is thrown as it is.
 */
export async function findColumn(
  api: ColumnLookup,
  dataset: string,
  keyName: string,
  signal?: AbortSignal,
): Promise<Column | null> {
  try {
    return (await api.getColumn(dataset, keyName, { signal })).data;
  } catch (err) {
    if (asServiceError(err)?.status === 404) return null;
    throw err;
  }
}

/** 'No column named "duration" in orders.' */
export function noColumnMessage(keyName: string, dataset: string, label: (s: string) => string): string {
  return l10n.t('No column named "{0}" in {1}.', label(keyName), label(dataset));
}
