// "Preview Trigger": would it have fired? From a trigger in the Datasets view, or from a CodeLens on a
// trigger file (its text as it is in the editor, unsaved edits included). The last 24 hours run at
// once; "Options..." in the panel picks another window (1 h, 6 h, 7 d) and, where a window needs
// several queries, a coarser step instead.
import * as vscode from 'vscode';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../../api/schemas';
import { connectionLabel, type ActiveConnection } from '../connections';
import { isAlreadyReported, progressFailureText } from '../core/errors';
import { safeLabel } from '../core/text';
import { loadItemArgs, parseArg } from '../tree';
import { DEFAULT_PREVIEW_WINDOW, PREVIEW_WINDOWS, planPreview, type PlanMode } from '../../backtest/plan';
import { readSavedQuery, runPreview, PreviewRefused } from './previewRun';
import { spanLabel } from '../../backtest/summary';
import { triggerFromText, type PreviewTrigger } from '../../backtest/triggerText';
import {
  offerWhatWorks,
  pacerFor,
  RUNNER_CLOCK,
  SAVED_QUERIES,
  sessionFor,
  type QueryFeatureDeps,
} from './queryCommands';
import { failedPreviewModel } from './resultsModel';
import { ResultsPanel } from './resultsPanel';
import type { ResultsRun } from './resultsProtocol';
import { RESULTS_TEXT } from './resultsText';
import { isCallUnavailable } from '../../backtest/runner';

/** A preview that failed for a reason other than the trigger itself: said in the panel, not only in a notification. */
class PreviewFailed {
  constructor(
    readonly message: string,
    readonly cause: unknown,
  ) {}
}

interface PreviewTarget {
  conn: ActiveConnection;
  dataset: string;
  trigger: PreviewTrigger;
  key: string;
  where: string;
  column: vscode.ViewColumn;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a file's preview is of, in the panel's words: the file, saved or not, seen by an environment or not. */
function previewWhere(doc: vscode.TextDocument, dataset: string, connection: string, environment?: string): string {
  const file = vscode.workspace.asRelativePath(doc.uri);
  const on = connectionLabel(connection);
  if (environment !== undefined)
    return doc.isDirty
      ? vscode.l10n.t('{0} (unsaved edits included) as {1} sees it, against {2} on {3}', file, environment, dataset, on)
      : vscode.l10n.t('{0} (as saved) as {1} sees it, against {2} on {3}', file, environment, dataset, on);
  return doc.isDirty
    ? vscode.l10n.t('{0} (unsaved edits included) against {1} on {2}', file, dataset, on)
    : vscode.l10n.t('{0} (as saved) against {1} on {2}', file, dataset, on);
}

export class TriggerPreviews {
  constructor(private readonly deps: QueryFeatureDeps) {}

  async fromArg(arg: unknown): Promise<void> {
    const node = parseArg((await loadItemArgs()).TriggerArg, arg);
    if (node) {
      const conn = await this.deps.connections.connectionFor(node.connectionId);
      const t = node.trigger;
      return this.preview({
        conn,
        dataset: node.dataset,
        trigger: { ...t, query: t.query ?? undefined, query_id: t.query_id ?? undefined },
        key: `preview:${conn.profile.id}:${node.dataset}:${t.id}`,
        where: `${node.dataset} on ${connectionLabel(conn.profile.name)}`,
        column: vscode.ViewColumn.Active,
      });
    }
    const uriText =
      isRecord(arg) && typeof arg.uri === 'string' ? arg.uri : vscode.window.activeTextEditor?.document.uri.toString();
    const doc =
      uriText === undefined ? undefined : vscode.workspace.textDocuments.find((d) => d.uri.toString() === uriText);
    if (!doc) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Preview a trigger from the Datasets view, or from the "Preview" lens at the top of a trigger file.',
        ),
      );
      return;
    }
    const text = doc.getText();
    const unreadable = (reason: string) =>
      // An error with "Show Logs": it stays until read, as every failure of something the user started.
      void this.deps.feedback.reportError(
        vscode.l10n.t('preview {0}', vscode.workspace.asRelativePath(doc.uri)),
        new Error(reason),
      );
    const home = triggerFromText(text);
    if (!home.ok) return unreadable(home.reason);
    const conn = await this.deps.connections.requireActive();
    // On an environment's connection, the trigger that environment will hold (docs/ENVIRONMENTS.md).
    const seen = this.deps.seenText(doc.uri, conn.profile.name, text);
    const read = seen.environment === undefined ? home : triggerFromText(seen.text);
    if (!read.ok) return unreadable(read.reason);
    const slug = read.trigger as { dataset_slug?: unknown };
    let dataset = typeof slug.dataset_slug === 'string' && slug.dataset_slug !== '' ? slug.dataset_slug : undefined;
    if (dataset === ENVIRONMENT_WIDE_TRIGGER_SLUG) dataset = ENVIRONMENT_WIDE;
    dataset ??= await vscode.window.showInputBox({
      title: vscode.l10n.t('Preview {0}', safeLabel(read.trigger.name, 80)),
      prompt: vscode.l10n.t(
        'The file names no dataset_slug: which dataset does this trigger query? ({0} for environment-wide)',
        ENVIRONMENT_WIDE,
      ),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' || /[/?#\s]/.test(v) ? vscode.l10n.t('Enter a dataset slug') : undefined),
    });
    if (dataset === undefined) return;
    await this.preview({
      conn,
      dataset: dataset.trim(),
      trigger: read.trigger,
      key: `preview:file:${doc.uri.toString()}`,
      where: previewWhere(doc, dataset.trim(), conn.profile.name, seen.environment),
      column: vscode.ViewColumn.Beside,
    });
  }

  private async preview(
    target: PreviewTarget,
    windowSeconds = DEFAULT_PREVIEW_WINDOW,
    mode: PlanMode = 'exact',
  ): Promise<void> {
    const { conn, dataset, trigger } = target;
    const { feedback, extensionUri } = this.deps;
    const name = safeLabel(trigger.name, 80);
    const title = vscode.l10n.t('Previewing trigger "{0}" over the last {1}...', name, spanLabel(windowSeconds));
    const done = await feedback.runWithProgress(title, async (signal, report) => {
      try {
        let query: unknown = trigger.query;
        if (!isRecord(query) && typeof trigger.query_id === 'string') {
          report(vscode.l10n.t('Reading its saved query...'));
          query = await readSavedQuery(conn.client, dataset, trigger.query_id, signal);
        }
        if (!isRecord(query)) throw new PreviewRefused(vscode.l10n.t('Trigger "{0}" has no query to preview.', name));
        return await runPreview(
          conn.client,
          pacerFor(conn),
          RUNNER_CLOCK,
          {
            dataset,
            trigger,
            query,
            windowSeconds,
            mode,
            nowSeconds: Math.floor(Date.now() / 1000),
            where: target.where,
            queries: SAVED_QUERIES,
            cache: sessionFor(conn).cache,
          },
          signal,
          report,
        );
      } catch (err) {
        if (isCallUnavailable(err) || err instanceof PreviewRefused) return err;
        if (isAlreadyReported(err)) throw err;
        return new PreviewFailed(progressFailureText(title, err), err);
      }
    });
    if (done === undefined) return;
    if (isCallUnavailable(done)) return offerWhatWorks(done.message);
    const panel = ResultsPanel.for(
      target.key,
      RESULTS_TEXT.previewTitle(name),
      extensionUri,
      feedback.log,
      target.column,
    );
    const actions = {
      links: {},
      rerun: async (withOptions: boolean) => {
        const options = withOptions ? await this.askOptions(target, windowSeconds) : { windowSeconds, mode };
        if (options) await this.preview(target, options.windowSeconds, options.mode);
      },
    };
    const saved = { run: this.runOf(target, windowSeconds, mode), links: {} };
    if (done instanceof PreviewRefused || done instanceof PreviewFailed) {
      // Said in the panel, where the user looks for the preview; a failure of the service is also
      // shown as a notification with "Show Logs".
      panel.show(failedPreviewModel(RESULTS_TEXT.previewTitle(name), target.where, done.message), actions, saved);
      if (done instanceof PreviewFailed) void feedback.reportError(vscode.l10n.t('preview the trigger'), done.cause);
      else feedback.log.warn(done.message);
      return;
    }
    panel.show(done.model, actions, saved);
  }

  private runOf(target: PreviewTarget, windowSeconds: number, mode: PlanMode): ResultsRun {
    const { conn, dataset, trigger, key, where } = target;
    return {
      kind: 'preview',
      connectionId: conn.profile.id,
      dataset,
      key,
      where,
      trigger: { ...trigger, name: trigger.name },
      windowSeconds,
      mode,
    };
  }

  /** Previews again a trigger whose panel came back after a window reload, as it was previewed then. */
  async rerunRestored(run: Extract<ResultsRun, { kind: 'preview' }>, withOptions: boolean): Promise<void> {
    const conn = await this.deps.connections.connectionFor(run.connectionId);
    const target: PreviewTarget = {
      conn,
      dataset: run.dataset,
      trigger: run.trigger as PreviewTrigger,
      key: run.key,
      where: run.where,
      column: vscode.ViewColumn.Active,
    };
    const options = withOptions
      ? await this.askOptions(target, run.windowSeconds)
      : { windowSeconds: run.windowSeconds, mode: run.mode };
    if (options) await this.preview(target, options.windowSeconds, options.mode);
  }

  /** The window, and for a window that needs several queries, exact steps or one coarser query. */
  private async askOptions(
    target: PreviewTarget,
    current: number,
  ): Promise<{ windowSeconds: number; mode: PlanMode } | undefined> {
    const query = isRecord(target.trigger.query)
      ? target.trigger.query
      : { time_range: target.trigger.frequency ?? 900 };
    const now = Math.floor(Date.now() / 1000);
    const items = PREVIEW_WINDOWS.map((w) => {
      const plan = planPreview(target.trigger, query, w, now, 'exact');
      const queries = plan.ok ? plan.queriesIfExact : 1;
      return {
        w,
        queries,
        label: vscode.l10n.t('Last {0}', spanLabel(w)),
        description: [
          w === DEFAULT_PREVIEW_WINDOW ? vscode.l10n.t('default') : undefined,
          w === current ? vscode.l10n.t('current') : undefined,
          queries === 1 ? vscode.l10n.t('1 query') : vscode.l10n.t("{0} queries at the trigger's frequency", queries),
        ]
          .filter(Boolean)
          .join(' · '),
      };
    });
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Preview {0}', safeLabel(target.trigger.name, 80)),
      placeHolder: vscode.l10n.t('How far back to evaluate it (the service keeps 7 days)'),
    });
    if (!picked) return undefined;
    if (picked.queries <= 1) return { windowSeconds: picked.w, mode: 'exact' };
    const minutes = Math.ceil(picked.queries / 10);
    const step = await vscode.window.showQuickPick(
      [
        {
          mode: 'exact' as const,
          label: vscode.l10n.t("Exact: {0} queries at the trigger's frequency", picked.queries),
          description: vscode.l10n.t('about {0} min or more: the service runs 10 queries a minute', minutes),
        },
        {
          mode: 'coarse' as const,
          label: vscode.l10n.t('Faster: one query at a coarser step'),
          description: vscode.l10n.t('every window value is estimated; the chart says so'),
        },
      ],
      {
        title: vscode.l10n.t('Preview over the last {0}', spanLabel(picked.w)),
        placeHolder: vscode.l10n.t('A query holds at most 1,000 steps'),
      },
    );
    return step ? { windowSeconds: picked.w, mode: step.mode } : undefined;
  }
}
