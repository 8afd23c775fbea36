// In dist/backtest-host.js (backtestHost.ts): the noise report over the workspace's trigger files (`*.trigger.json`,
// the files Apply sends), run on the active connection's query session with cancellable progress that shows
// the waits for the service's 10 queries a minute, and a suggested change made in the file's editor for the
// user to review (Compare with Saved, Undo): never saved by the extension (the editor's Auto Save may), never
// sent. Loaded on first use by registerNoise.ts.
import * as vscode from 'vscode';
import {
  CREATIONS_PER_MINUTE,
  isTriggerTestFile,
  parseTestFile,
  triggerPathFor,
  TRIGGER_TEST_SUFFIX,
} from '../../backtest';
import {
  evaluateAll,
  newQueriesOf,
  noisiestFirst,
  prepareNoise,
  type NoiseEntry,
  type NoiseOptions,
  type NoiseSession,
  type NoiseTarget,
  type PreparedNoise,
} from '../../backtest/noiseReport';
import type { PlanMode } from '../../backtest/plan';
import { connectionLabel, type ActiveConnection, type ConnectionManager } from '../connections';
import { configureL10n } from '../core/l10nSetup';
import type { Feedback } from '../core/feedback';
import { workspaceName } from '../core/triggerFileAccess';
import { readWorkspaceText, type SeenText } from '../core/workspaceText';
import type { QueryServices } from '../queries';
import { noiseRows, withoutSuggestions, type NoiseRow } from './noiseRows';
import { readSuggestedEdit, suggestionEdits, suggestionNotice } from './suggestionEdit';
import { SKIPPED_BY_SEARCHES } from '../../triggerFiles/searchRules';

const TRIGGER_GLOB = '**/*.trigger.json';

export interface NoiseDeps {
  connections: ConnectionManager;
  /** A trigger file's text as the connection's environment sees it, when it is one (docs/ENVIRONMENTS.md). */
  seenText: SeenText;
  services: () => QueryServices;
  feedback: Feedback;
  maxPerWeek: () => number;
}

interface NoiseReport {
  rows: NoiseRow[];
  /** Over the view: the connection, the budget, how many triggers. */
  message: string;
}

export interface LoadedNoise {
  /** Runs the report; undefined when there is nothing to report or it was not started. */
  run(): Promise<NoiseReport | undefined>;
  review(arg: unknown): Promise<void>;
}

const label = workspaceName;

/**
 * The workspace's trigger files, each with the test files that test it; on an environment's connection, each
 * trigger as that environment sees it (as obs noise --env counts it), said in its label.
 */
async function targets(deps: NoiseDeps, connection: string): Promise<{ found: NoiseTarget[]; seenBy: Set<string> }> {
  const [triggers, tests] = await Promise.all([
    vscode.workspace.findFiles(TRIGGER_GLOB, SKIPPED_BY_SEARCHES),
    vscode.workspace.findFiles(`**/*${TRIGGER_TEST_SUFFIX}`, SKIPPED_BY_SEARCHES),
  ]);
  const testsOf = new Map<string, { label: string; text: string }[]>();
  for (const uri of tests) {
    const read = await readWorkspaceText(uri);
    const parsed = read.ok ? parseTestFile(read.text) : undefined;
    const path = triggerPathFor(uri.path, parsed?.ok === true ? parsed.file.trigger : undefined);
    if (!read.ok || path === undefined) continue;
    const key = uri.with({ path }).toString();
    testsOf.set(key, [...(testsOf.get(key) ?? []), { label: label(uri), text: read.text }]);
  }
  const out: NoiseTarget[] = [];
  const seenBy = new Set<string>();
  for (const uri of triggers.sort((a, b) => a.toString().localeCompare(b.toString()))) {
    if (isTriggerTestFile(uri.path)) continue;
    const read = await readWorkspaceText(uri);
    const seen = deps.seenText(uri, connection, read.ok ? read.text : '');
    out.push({
      key: uri.toString(),
      label:
        seen.environment === undefined
          ? label(uri)
          : vscode.l10n.t('{0}, as {1} sees it', label(uri), seen.environment),
      text: seen.text,
      tests: testsOf.get(uri.toString()) ?? [],
    });
    if (seen.environment !== undefined) seenBy.add(uri.toString());
  }
  return { found: out, seenBy };
}

/** The query session a trigger's noise is read on, cancelled by `signal`, its waits told through `report`. */
function sessionOf(
  deps: NoiseDeps,
  conn: ActiveConnection,
  signal: AbortSignal,
  report: (m: string) => void,
): NoiseSession {
  const { pacer, cache, queries, clock } = deps.services().sessionFor(conn);
  return { api: conn.client, pacer, cache, queries, clock, signal, report, nowSeconds: Math.floor(Date.now() / 1000) };
}

/** Exact steps, or one query per trigger at a coarser step when the exact ones would take more than a minute. */
async function askMode(
  deps: NoiseDeps,
  prepared: readonly PreparedNoise[],
  conn: ActiveConnection,
): Promise<PlanMode | undefined> {
  const cache = deps.services().sessionFor(conn).cache;
  const now = Math.floor(Date.now() / 1000);
  const count = (mode: PlanMode) => newQueriesOf(prepared, now, { mode, days: 7 }, cache);
  const exact = count('exact');
  if (exact <= CREATIONS_PER_MINUTE) return 'exact';
  const coarse = count('coarse');
  const picked = await vscode.window.showQuickPick(
    [
      {
        mode: 'exact' as const,
        label: vscode.l10n.t("Exact: {0} queries at each trigger's frequency", exact),
        description: vscode.l10n.t(
          'about {0} min: the service runs 10 queries a minute',
          Math.ceil(exact / CREATIONS_PER_MINUTE),
        ),
      },
      {
        mode: 'coarse' as const,
        label: vscode.l10n.t('Faster: {0} queries at coarser steps', coarse),
        description: vscode.l10n.t('the counts are estimates; the report says so'),
      },
    ],
    {
      title: vscode.l10n.t('Noise report over the last 7 days of {0} triggers', prepared.length),
      placeHolder: vscode.l10n.t(
        'A query holds at most 1,000 steps; results already fetched in this session are not fetched again',
      ),
    },
  );
  return picked?.mode;
}

/** Each target's trigger made ready to evaluate, or why it is left out. */
async function prepareAll(
  deps: NoiseDeps,
  conn: ActiveConnection,
  found: readonly NoiseTarget[],
  signal: AbortSignal,
  report: (m: string) => void,
): Promise<(PreparedNoise | NoiseEntry)[]> {
  const out: (PreparedNoise | NoiseEntry)[] = [];
  for (const t of found) out.push(await prepareNoise(t, sessionOf(deps, conn, signal, report)));
  return out;
}

/** Each trigger in turn, as one run over the session's results; after a cancel, those not evaluated are listed as such. */
function evaluateReady(
  deps: NoiseDeps,
  ready: readonly PreparedNoise[],
  conn: ActiveConnection,
  options: NoiseOptions,
  signal: AbortSignal,
  report: (m: string) => void,
): Promise<NoiseEntry[]> {
  return evaluateAll(ready, sessionOf(deps, conn, signal, report), options, (p, i) => {
    const say = (m: string) =>
      report(vscode.l10n.t('{0} ({1} of {2}): {3}', p.tested.trigger.name, i + 1, ready.length, m));
    say(vscode.l10n.t('evaluating...'));
    return sessionOf(deps, conn, signal, say);
  });
}

/** The report over the workspace's trigger files on the active connection; undefined when there is nothing to report or it was not started. */
async function runReport(deps: NoiseDeps): Promise<NoiseReport | undefined> {
  const conn = await deps.connections.requireActive();
  const { found, seenBy } = await targets(deps, conn.profile.name);
  if (found.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'The workspace has no trigger files (*.trigger.json) to report on. Pull the triggers of a dataset into files first (Datasets view).',
      ),
    );
    return undefined;
  }
  const prepared = await deps.feedback.runWithProgress(
    vscode.l10n.t('Reading {0} trigger files...', found.length),
    (signal, report) => prepareAll(deps, conn, found, signal, report),
  );
  if (!prepared) return undefined;
  const ready = prepared.filter((p): p is PreparedNoise => 'tested' in p);
  const mode = ready.length === 0 ? 'exact' : await askMode(deps, ready, conn);
  if (mode === undefined) return undefined;
  const max = deps.maxPerWeek();
  const left = prepared.filter((p): p is NoiseEntry => !('tested' in p));
  const evaluated = await deps.feedback.runWithProgress(
    vscode.l10n.t('Noise report: evaluating {0} triggers over the last 7 days...', ready.length),
    (signal, report) => evaluateReady(deps, ready, conn, { mode, days: 7, budget: max }, signal, report),
  );
  if (!evaluated) return undefined;
  // A trigger an environment sees has its threshold, maybe its override's: no edit of the file is suggested.
  const all = withoutSuggestions([...left, ...evaluated], seenBy);
  const noisy = all.filter((e) => e.kind === 'evaluated' && e.counts.notifications > max).length;
  return {
    rows: noiseRows(noisiestFirst(all), max),
    message: vscode.l10n.t(
      '{0} on {1}: {2} of {3} trigger files over {4} notifications in the last 7 days.',
      mode === 'exact' ? vscode.l10n.t('Noise') : vscode.l10n.t('Noise (estimated, coarser steps)'),
      connectionLabel(conn.profile.name),
      noisy,
      found.length,
      max,
    ),
  };
}

/** Makes a suggested change in the trigger file's editor, for the user to review: never saved nor sent by it. */
async function reviewSuggestion(arg: unknown): Promise<void> {
  const s = readSuggestedEdit(arg);
  const uri = s && vscode.Uri.parse(s.key, true);
  // Only a trigger file of the workspace, as the report lists them (a command link could name any file).
  if (
    !s ||
    !uri ||
    !uri.path.endsWith('.trigger.json') ||
    isTriggerTestFile(uri.path) ||
    !vscode.workspace.getWorkspaceFolder(uri)
  )
    return;
  const doc = await vscode.workspace.openTextDocument(uri);
  const edits = suggestionEdits(doc.getText(), s);
  if (!edits.ok) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The suggestion for {0} was not made: {1}.', label(uri), edits.reason),
    );
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  const what =
    s.member === 'value' ? vscode.l10n.t('threshold value {0}', s.value) : vscode.l10n.t('exceeded_limit {0}', s.value);
  for (const e of edits.edits)
    edit.replace(uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
  // Into the editor's text only: the user reviews it there (Compare with Saved, Undo), and saves it or not.
  if (!(await vscode.workspace.applyEdit(edit))) return;
  const first = edits.edits[0];
  const start = first ? doc.positionAt(first.offset) : new vscode.Position(0, 0);
  const end = first ? doc.positionAt(first.offset + first.content.length) : start;
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(start, end), preview: false });
  // Said as it is: the editor's Auto Save (on by default in a browser) saves the change by itself.
  const autoSave = vscode.workspace.getConfiguration('files', uri).get<string>('autoSave', 'off');
  const notice = suggestionNotice(label(uri), what, { dirty: doc.isDirty, autoSave });
  const compare =
    notice.compare === 'saved' ? vscode.l10n.t('Compare with Saved') : vscode.l10n.t('Compare with Service');
  const choice = await vscode.window.showInformationMessage(notice.text, compare);
  if (choice !== compare) return;
  if (notice.compare === 'saved') await vscode.commands.executeCommand('workbench.files.action.compareWithSaved', uri);
  else await vscode.commands.executeCommand('obs.drift.compare', { uri: uri.toString() });
}

export function createNoiseReport(deps: NoiseDeps): LoadedNoise {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configureL10n();
  return { run: () => runReport(deps), review: reviewSuggestion };
}
