// The linter's findings of a trigger as an environment sees it (docs/ENVIRONMENTS.md), placed where a person
// fixes each: a member the environment's override set at that override in the environments file; any other at the
// member in the trigger file (the effective text, which the linter read, is in no file). `obs lint --env` and the
// editor place them alike. The linter is not loaded here: its findings come in, placed findings go out.
import type { Diagnostic, JsonPath } from '../lint/types';
import { overriddenMember, type EffectiveFile } from './environmentPlan';
import { jsonRangeLocator } from './jsonPlaces';
import { canonicalDatasetSlug } from './normalize';

type Range = Diagnostic['range'];

/**
 * The keys of the environment's `triggers` as the environments file spells them, by canonical dataset slug (the
 * reader keeps them canonical). The file was read strictly before: its shape is the one the reader checked.
 */
function triggerKeys(text: string, name: string): Map<string, string> {
  try {
    const value: unknown = JSON.parse(text);
    const envs = (value as { environments?: Record<string, { triggers?: Record<string, unknown> }> }).environments;
    return new Map(Object.keys(envs?.[name]?.triggers ?? {}).map((k) => [canonicalDatasetSlug(k), k]));
  } catch {
    return new Map();
  }
}

/** The environments file a finding may be placed in: its environment's name and its text. */
export interface EnvironmentsText {
  name: string;
  text: string;
}

/** A trigger file's findings as the environment sees it: those of the file, and those of the environments file. */
export interface PlacedFindings {
  here: Diagnostic[];
  there: Diagnostic[];
}

/**
 * Places the linter's findings of a file's effective text. Another environment than the home one names recipients
 * by type and target by design (its ids differ), so `trigger/recipient-deprecated` is not said; a recipient that
 * cannot be taken there is an error at the trigger's `recipients` (the plan blocks it: rule `trigger/recipient`).
 */
export class EnvironmentFindings {
  private readonly locateThere: (path: JsonPath) => Range;
  private readonly keys: Map<string, string>;

  constructor(private readonly env: EnvironmentsText) {
    this.locateThere = jsonRangeLocator(env.text);
    this.keys = triggerKeys(env.text, env.name);
  }

  /** The path of an override's member in the environments file. */
  overridePath(dataset: string, name: string, rest: readonly (string | number)[]): JsonPath {
    return ['environments', this.env.name, 'triggers', this.keys.get(dataset) ?? dataset, name, ...rest];
  }

  /** Where a path of the environments file lies in it. */
  rangeThere(path: JsonPath): Range {
    return this.locateThere(path);
  }

  place(found: readonly Diagnostic[], effective: EffectiveFile, fileText: string): PlacedFindings {
    const locateHere = jsonRangeLocator(fileText);
    const out: PlacedFindings = { here: [], there: [] };
    for (const d of found) {
      if (d.rule === 'trigger/recipient-deprecated') continue;
      const overridden = overriddenMember(effective, d.path);
      // Its fix and related places are ranges of the effective text: neither file holds them there.
      const { fix: _fix, related: _related, ...plain } = d;
      if (overridden === undefined) out.here.push({ ...plain, range: locateHere(d.path) });
      else {
        const path = this.overridePath(overridden.dataset, overridden.name, overridden.member);
        out.there.push({ ...plain, path, range: this.locateThere(path) });
      }
    }
    for (const [index, problems] of effective.problems) {
      const path = index === -1 ? ['recipients'] : [index, 'recipients'];
      const range = locateHere(path);
      for (const message of problems)
        out.here.push({ rule: 'trigger/recipient', severity: 'error', message, range, path });
    }
    return out;
  }
}
