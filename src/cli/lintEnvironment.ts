// obs lint --env (docs/ENVIRONMENTS.md): each trigger file linted as the environment sees it (its effective
// triggers), each diagnostic pointed at where a person fixes it: a member the environment's override set, at that
// override in the environments file; any other, at the member in the trigger file. An override that names no
// trigger of the files found in a folder is a diagnostic at its place.
import { resolve } from 'node:path';
import type { DecodedFile, Diagnostic, LintReport } from '../lint';
import { ruleInfo } from '../lint/rules';
import type { PlanEnvironment } from '../triggerFiles';
import { unusedOverrides } from '../triggerFiles/effective';
import { EnvironmentFindings } from '../triggerFiles/environmentLint';
import { effectiveFile } from '../triggerFiles/environmentPlan';
import type { FileReport } from './lintSarif';

/** The environment obs lint reads the trigger files for, and its environments file's text. */
export interface LintEnvironment {
  plan: PlanEnvironment;
  text: string;
}

type Lint = (decoded: DecodedFile) => LintReport;

/** The diagnostics of one run of obs lint --env: those of each trigger file, and those of the environments file. */
export class EnvironmentLint {
  /** The diagnostics at the environments file, in the order found. */
  readonly atEnvironments: Diagnostic[] = [];
  private readonly walked: { dataset: string; name: string }[] = [];
  private readonly findings: EnvironmentFindings;

  constructor(private readonly env: LintEnvironment) {
    this.findings = new EnvironmentFindings({ name: env.plan.name, text: env.text });
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
    const report = lint({ ...decoded, text: effective.text });
    const { here, there } = this.findings.place(report.diagnostics, effective, decoded.text);
    this.atEnvironments.push(...there);
    return { ...report, diagnostics: here };
  }

  /**
   * The reports with the diagnostics at the environments file added to its report: the one of the run when it was
   * linted too, else one of its own, last.
   */
  withEnvironmentsFile(reports: FileReport[], cwd: string): FileReport[] {
    const there = [...this.atEnvironments, ...this.unusedOverrides()];
    if (there.length === 0) return reports;
    const file = this.env.plan.file;
    const own = reports.find((r) => r.error === undefined && resolve(cwd, r.file) === resolve(cwd, file));
    if (own === undefined) return [...reports, { file, diagnostics: there }];
    return reports.map((r) => (r === own ? { ...r, diagnostics: [...r.diagnostics, ...there] } : r));
  }

  /** Each override naming no trigger of the files found by a walk, in the datasets those files hold. */
  unusedOverrides(): Diagnostic[] {
    const overlay = this.env.plan.overlay;
    if (overlay === undefined) return [];
    const datasets = new Set(this.walked.map((t) => t.dataset));
    return unusedOverrides(overlay, this.walked).flatMap(([, dataset, name]) => {
      if (typeof dataset !== 'string' || typeof name !== 'string' || !datasets.has(dataset)) return [];
      const path = this.findings.overridePath(dataset, name, []);
      const range = this.findings.rangeThere(path);
      const message =
        `${this.env.plan.name} overrides ${JSON.stringify(name)} of ${dataset}, but no trigger file holds a ` +
        'trigger of that name: a misspelt name leaves the trigger it means as its file holds it';
      return [{ rule: 'environments/file' as const, ...severity('environments/file'), message, range, path }];
    });
  }
}

const severity = (rule: 'environments/file') => ({ severity: ruleInfo(rule).severity });
