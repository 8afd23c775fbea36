// A trigger's dataset checked against the datasets the service lists (given in LintOptions.datasets):
// a slug the service does not have is a warning, with the nearest slug it does have as the fix. Only
// when the list is given (the editor with an active connection that could list them): an unknown list
// is never guessed. Environment-wide triggers (`all`, `__all__`) name no dataset and are not checked.
import * as l10n from '@vscode/l10n';
import type { Finding } from './issues';
import { nearestName } from './nearest';
import type { JsonPath } from './types';
import type { LintRun } from './run';

interface Known {
  slugs: Set<string>;
  nearest: Map<string, string | undefined>;
}

// Options cross a thread boundary as copies: the set is built once per options object.
const prepared = new WeakMap<readonly string[], Known>();

function known(datasets: readonly string[]): Known {
  let k = prepared.get(datasets);
  if (k === undefined) {
    k = { slugs: new Set(datasets), nearest: new Map() };
    prepared.set(datasets, k);
  }
  return k;
}

const ENVIRONMENT_WIDE = new Set(['all', '__all__']);
const shown = (slug: string) => JSON.stringify(slug.length > 80 ? `${slug.slice(0, 80)}...` : slug);

/** The finding of a dataset_slug the service does not list; `run` is the lint's (its nearest-name searches). */
export function datasetFindings(
  trigger: Record<string, unknown>,
  prefix: JsonPath,
  datasets: readonly string[],
  run: LintRun,
): Finding[] {
  const slug = trigger.dataset_slug;
  if (typeof slug !== 'string' || slug === '' || ENVIRONMENT_WIDE.has(slug)) return [];
  const k = known(datasets);
  if (k.slugs.has(slug)) return [];
  let nearest = k.nearest.get(slug);
  if (!k.nearest.has(slug) && run.searchesLeft > 0) {
    run.searchesLeft--;
    nearest = nearestName(slug, datasets, { wordExtensions: true });
    k.nearest.set(slug, nearest);
  }
  const message =
    nearest === undefined
      ? l10n.t('The service has no dataset {0}: the trigger cannot be created or previewed there', shown(slug))
      : l10n.t(
          'The service has no dataset {0} (did you mean {1}?): the trigger cannot be created or previewed there',
          shown(slug),
          shown(nearest),
        );
  return [
    {
      rule: 'trigger/unknown-dataset',
      at: [...prefix, 'dataset_slug'],
      inTrigger: 1,
      message,
      ...(nearest === undefined ? {} : { params: { rule: 'trigger/unknown-dataset', replaceText: nearest } }),
    },
  ];
}
