// obs lint --env (docs/ENVIRONMENTS.md): each trigger file linted as the environment sees it (its effective
// triggers), each diagnostic pointed at where a person fixes it: a member the environment's override set, at that
// override in the environments file; any other, at the member in the trigger file. An override that names no
// trigger of the files found in a folder is a diagnostic at its place.
import type { DecodedFile, Diagnostic, LintReport } from '../lint';
import type { JsonPath } from '../lint/types';
import { targetSpan } from '../lint/locate';
import { skimTree } from '../lint/skim';
import { LineIndex } from '../lint/text';
import { ruleInfo } from '../lint/rules';
import type { PlanEnvironment } from '../triggerFiles';
import { unusedOverrides } from '../triggerFiles/effective';
import { effectiveFile } from '../triggerFiles/environmentPlan';
import { canonicalDatasetSlug } from '../triggerFiles/normalize';

/** The environment obs lint reads the trigger files for, and its environments file's text. */
export interface LintEnvironment {
  plan: PlanEnvironment;
  text: string;
}

type Lint = (decoded: DecodedFile) => LintReport;

/**
 * Where a path lies in a text, as the linter ranges a member (key through value; a missing one: its parent). Both
 * texts located in were parsed before; one that would not be is pointed at from its start, never at a place of
 * another text.
 */
function locator(text: string): (path: JsonPath) => Diagnostic['range'] {
  const root = skimTree(text);
  const lines = new LineIndex(text);
  return (path) => {
    if (root === undefined) return lines.range(0, 0);
    const span = targetSpan(root, path);
    return lines.range(span.offset, span.length);
  };
}

const startsWith = (path: JsonPath, prefix: readonly (string | number)[]): boolean =>
  prefix.length <= path.length && prefix.every((p, i) => path[i] === p);

/**
 * The keys of the environment's `triggers` as the file spells them, by canonical dataset slug (the reader keeps
 * them canonical). The file was read strictly before: its shape is the one the reader checked.
 */
function triggerKeys(text: string, name: string): Map<string, string> {
  try {
    const value: unknown = JSON.parse(text);
    const envs = (value as { environments?: Record<string, { triggers?: Record<string, unknown> }> }).environments;
    const keys = Object.keys(envs?.[name]?.triggers ?? {});
    return new Map(keys.map((k) => [canonicalDatasetSlug(k), k]));
  } catch {
    return new Map();
  }
}

/** The diagnostics of one run of obs lint --env: those of each trigger file, and those of the environments file. */
export class EnvironmentLint {
  /** The diagnostics at the environments file, in the order found. */
  readonly atEnvironments: Diagnostic[] = [];
  private readonly walked: { dataset: string; name: string }[] = [];
  private readonly locateThere: ReturnType<typeof locator>;
  private readonly keys: Map<string, string>;

  constructor(private readonly env: LintEnvironment) {
    this.locateThere = locator(env.text);
    this.keys = triggerKeys(env.text, env.plan.name);
  }

  /** The path of an override's member in the environments file. */
  private overridePath(dataset: string, name: string, rest: JsonPath): JsonPath {
    const key = this.keys.get(dataset) ?? dataset;
    return ['environments', this.env.plan.name, 'triggers', key, name, ...rest];
  }

  /**
   * The trigger file's diagnostics as the environment sees it; those about what its override set are kept for the
   * environments file. A file the linter cannot read as triggers (or with bytes not UTF-8) is linted as it is.
   */
  lintTriggerFile(decoded: DecodedFile, walked: boolean, lint: Lint): LintReport {
    const overlay = this.env.plan.overlay;
    const effective =
      overlay === undefined || decoded.problems.length > 0 ? undefined : effectiveFile(decoded.text, overlay);
    if (effective === undefined) return lint(decoded);
    if (walked) this.walked.push(...effective.triggers);
    const locateHere = locator(decoded.text);
    const here: Diagnostic[] = [];
    const report = lint({ ...decoded, text: effective.text });
    for (const d of report.diagnostics) {
      // Another environment than the home one names recipients by type and target by design (its ids differ);
      // obs plan resolves each to that environment's id.
      if (d.rule === 'trigger/recipient-deprecated') continue;
      // The effective text holds the triggers as the file does: one object, or an array in the same order.
      const index = typeof d.path[0] === 'number' ? d.path[0] : -1;
      const member = index === -1 ? d.path : d.path.slice(1);
      const overlaid = effective.overlaid.get(index);
      const fromOverlay = overlaid?.paths.some((p) => startsWith(member, p)) === true;
      // Its fix and related places are ranges of the effective text: neither file holds them there.
      const { fix: _fix, related: _related, ...plain } = d;
      if (overlaid !== undefined && fromOverlay) {
        const path = this.overridePath(overlaid.dataset, overlaid.name, member);
        this.atEnvironments.push({ ...plain, path, range: this.locateThere(path) });
      } else here.push({ ...plain, range: locateHere(d.path) });
    }
    for (const [index, problems] of effective.problems) {
      const path = index === -1 ? ['recipients'] : [index, 'recipients'];
      const range = locateHere(path);
      for (const message of problems)
        here.push({ rule: 'trigger/recipient', ...severity('trigger/recipient'), message, range, path });
    }
    return { ...report, diagnostics: here };
  }

  /** Each override naming no trigger of the files found by a walk, in the datasets those files hold. */
  unusedOverrides(): Diagnostic[] {
    const overlay = this.env.plan.overlay;
    if (overlay === undefined) return [];
    const datasets = new Set(this.walked.map((t) => t.dataset));
    return unusedOverrides(overlay, this.walked).flatMap(([, dataset, name]) => {
      if (typeof dataset !== 'string' || typeof name !== 'string' || !datasets.has(dataset)) return [];
      const path = this.overridePath(dataset, name, []);
      const range = this.locateThere(path);
      const message =
        `${this.env.plan.name} overrides ${JSON.stringify(name)} of ${dataset}, but no trigger file holds a ` +
        'trigger of that name: a misspelt name leaves the trigger it means as its file holds it';
      return [{ rule: 'environments/file' as const, ...severity('environments/file'), message, range, path }];
    });
  }
}

const severity = (rule: 'trigger/recipient' | 'environments/file') => ({ severity: ruleInfo(rule).severity });
