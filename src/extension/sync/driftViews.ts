// The editor's views of drift (driftModel.ts): the Explorer badge and colour of trigger, burn alert and
// definitions files, the CodeLens at the top of such a file, the Drift view's items, and the service's version
// of a trigger as a read-only document for "Compare with Service". Each redraws once per change of the model,
// which comes once per batch of file events. The Drift view itself is made at activation (registerSync.ts), so that it
// can be shown before this bundle loads: DriftTree fills it.
import * as vscode from 'vscode';
import { kindOfFile, triggerFileText, type SloFileDrift } from '../../triggerFiles';
import type { DriftModel } from './driftModel';
import {
  decorationOf,
  differenceItems,
  driftBadgeCount,
  driftRoots,
  driftSummary,
  fileRow,
  lensesOf,
  serviceOnlyRow,
  type DriftItem,
} from './driftPresentation';
import type { FileDrift, ServiceTrigger } from '../../triggerFiles';
import { sloDecorationOf, sloDifferenceItems, sloFileRow, sloLensesOf } from './sloDriftPresentation';
import { parseServiceTriggerPath, SERVICE_TRIGGER_SCHEME, serviceTriggerPath } from './serviceTriggerUri';
import type { RecipientDirectory } from '../core/recipients';

/** The active connection's recipients when known: differences in recipients name them. */
export type RecipientsNow = () => RecipientDirectory | undefined;

/** The parts of the Drift view's vscode.TreeView that DriftTree writes. */
export interface DriftViewSurface {
  message?: string | undefined;
  badge?: vscode.ViewBadge | undefined;
}

/** Badge and colour of files that differ from the service, are only local or could not be compared. */
export class DriftDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri | vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private readonly sub: { dispose(): void };

  constructor(private readonly model: DriftModel) {
    this.sub = model.onDidChange((what) =>
      this.changed.fire(what === 'all' ? undefined : what.map((u) => vscode.Uri.parse(u))),
    );
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const connection = this.model.connectionName();
    if (connection === undefined) return undefined;
    const slo = this.model.sloFileDrift(uri.toString());
    const d =
      slo === undefined
        ? decorationOf(this.model.fileDrift(uri.toString()), connection)
        : sloDecorationOf(slo, connection);
    return d && new vscode.FileDecoration(d.badge, d.tooltip, new vscode.ThemeColor(d.color));
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

/** "In sync with <connection>" or "Differs: threshold, recipients - Compare" at the top of a file. */
export class DriftLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly sub: { dispose(): void };

  constructor(
    private readonly model: DriftModel,
    private readonly recipients: RecipientsNow = () => undefined,
  ) {
    this.sub = model.onDidChange(() => this.changed.fire());
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (doc.uri.scheme === SERVICE_TRIGGER_SCHEME) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const uri = doc.uri.toString();
    const connection = this.model.connectionName();
    const state = this.model.getState().kind;
    const lenses =
      kindOfFile(doc.uri.path) === 'trigger'
        ? lensesOf(this.model.fileDrift(uri), connection, state, this.recipients())
        : sloLensesOf(this.model.sloFileDrift(uri), connection, state, this.recipients());
    return lenses.map((l) => {
      const command =
        l.action === 'compareFile'
          ? { title: l.title, command: 'obs.slo.compare', arguments: [doc.uri] }
          : l.action === 'compare' || l.action === 'apply'
            ? {
                title: l.title,
                command: l.action === 'compare' ? 'obs.drift.compare' : 'obs.apply.file',
                arguments: [{ uri, index: l.index }],
              }
            : l.action === 'refresh'
              ? { title: l.title, command: 'obs.drift.refresh' }
              : { title: l.title, command: '' };
      return new vscode.CodeLens(top, l.tooltip === undefined ? command : { ...command, tooltip: l.tooltip });
    });
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

/**
 * The service's version of a trigger, in canonical form (normalize), read-only. While the service's lists are
 * read again (after an apply, a refresh) the model holds none: a document shown keeps the text it had, and is
 * given the new one once the lists are read. A trigger no longer among them then says so.
 */
export class ServiceTriggerDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly shown = new Map<string, vscode.Uri>();
  /** The text each document was last given. */
  private readonly texts = new Map<string, string>();
  private readonly sub: { dispose(): void };

  constructor(private readonly model: DriftModel) {
    // A refresh may bring a newer version of a trigger shown on the left of a diff: asked for once it is read.
    this.sub = model.onDidChange(() => {
      if (model.getState().kind !== 'ready') return;
      for (const uri of this.shown.values()) this.changed.fire(uri);
    });
  }

  uriOf(connectionId: string, trigger: { id: string; name: string }): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SERVICE_TRIGGER_SCHEME, path: serviceTriggerPath(connectionId, trigger) });
    this.shown.set(uri.toString(), uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const ref = parseServiceTriggerPath(uri.path);
    if (ref === undefined) throw new Error(`not a service trigger: ${uri.toString()}`);
    const key = uri.toString();
    const trigger = this.model.serviceTrigger(ref.connectionId, ref.triggerId);
    if (trigger !== undefined) {
      const text = triggerFileText(trigger);
      this.texts.set(key, text);
      return text;
    }
    const last = this.texts.get(key);
    if (this.model.getState().kind === 'ready' && this.model.connectionId() === ref.connectionId) {
      // A JSON string, so the JSON editor shows it without a problem.
      const gone = vscode.l10n.t(
        'The trigger {0} is not among the triggers read from the service now: it was deleted, or its dataset could not be listed (refresh the Drift view to read it again).',
        ref.triggerId,
      );
      return `${JSON.stringify(gone)}\n`;
    }
    if (last !== undefined) return last;
    throw new Error(
      `The trigger ${ref.triggerId} is not among the triggers read from the service; ` +
        'refresh the Drift view and compare again.',
    );
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

type Node = DriftItem;

/** A file's path as the views show it: relative to the workspace (with its folder's name when there are several). */
export function workspacePath(uri: string): string {
  const parsed = vscode.Uri.parse(uri);
  if (vscode.workspace.workspaceFolders?.[0] === undefined) return parsed.path;
  return vscode.workspace.asRelativePath(parsed, vscode.workspace.workspaceFolders.length > 1);
}

/**
 * The Drift view's items: every trigger file not in sync (with its differences), the service's triggers no
 * file holds, and every burn alert and definitions file not in sync. Each row and its TreeItem are made once and
 * kept until its file changes (the model names the files of each change), so a batch makes the rows of its files
 * only, however many the view lists.
 */
export class DriftTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly sub: { dispose(): void };
  /** Each file's row, as made from the drift it had (none for a file in sync). */
  private readonly fileRows = new Map<string, { drift: FileDrift; row: DriftItem | undefined }>();
  private readonly onlyRows = new Map<ServiceTrigger, DriftItem>();
  private readonly sloRows = new Map<string, { drift: SloFileDrift; row: DriftItem | undefined }>();
  private readonly items = new WeakMap<Node, vscode.TreeItem>();

  constructor(
    private readonly model: DriftModel,
    /** The view's summary line and badge. */
    private readonly view: DriftViewSurface,
    private readonly recipients: RecipientsNow = () => undefined,
  ) {
    this.sub = model.onDidChange((what) => {
      if (what === 'all') {
        this.fileRows.clear();
        this.onlyRows.clear();
        this.sloRows.clear();
      } else
        for (const uri of what) {
          this.fileRows.delete(uri);
          this.sloRows.delete(uri);
        }
      this.redraw();
    });
    this.redraw();
  }

  private rowOf(f: FileDrift): DriftItem | undefined {
    const kept = this.fileRows.get(f.file);
    if (kept?.drift === f) return kept.row;
    const row = fileRow(f, workspacePath);
    this.fileRows.set(f.file, { drift: f, row });
    return row;
  }

  private sloRowOf(f: SloFileDrift): DriftItem | undefined {
    const kept = this.sloRows.get(f.file);
    if (kept?.drift === f) return kept.row;
    const row = sloFileRow(f, workspacePath);
    this.sloRows.set(f.file, { drift: f, row });
    return row;
  }

  private onlyRowOf(t: ServiceTrigger, connection: string): DriftItem {
    let row = this.onlyRows.get(t);
    if (row === undefined) this.onlyRows.set(t, (row = serviceOnlyRow(t, connection)));
    return row;
  }

  private redraw(): void {
    const snapshot = this.model.snapshot();
    this.view.message = driftSummary(snapshot);
    const count = driftBadgeCount(snapshot);
    this.view.badge =
      count > 0
        ? {
            value: count,
            tooltip:
              count === 1
                ? vscode.l10n.t('1 not in sync with the service')
                : vscode.l10n.t('{0} not in sync with the service', count),
          }
        : undefined;
    void vscode.commands.executeCommand('setContext', 'obs.drift.state', snapshot.state.kind);
    this.changed.fire(undefined);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    let item = this.items.get(node);
    if (item === undefined) this.items.set(node, (item = this.treeItemOf(node)));
    return item;
  }

  private treeItemOf(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'file': {
        const item = new vscode.TreeItem(
          node.label,
          node.status === 'differs' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
        );
        item.resourceUri = vscode.Uri.parse(node.uri);
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.contextValue = node.of === undefined ? `obs:drift:${node.status}` : `obs:drift:slo:${node.status}`;
        item.command =
          node.status === 'differs'
            ? compareCommand(node)
            : { title: vscode.l10n.t('Open'), command: 'vscode.open', arguments: [item.resourceUri] };
        return item;
      }
      case 'difference': {
        const item = new vscode.TreeItem(node.label);
        item.tooltip = node.tooltip;
        item.description = node.description;
        item.iconPath = new vscode.ThemeIcon('diff');
        item.contextValue = node.of === undefined ? 'obs:drift:difference' : 'obs:drift:slo:difference';
        item.command = compareCommand(node);
        return item;
      }
      case 'serviceOnly': {
        const item = new vscode.TreeItem(node.label);
        item.description = node.description;
        item.iconPath = new vscode.ThemeIcon('cloud');
        item.tooltip = vscode.l10n.t(
          '{0} ({1}) is on the service but in no trigger file; pull the dataset to write it.',
          node.label,
          node.dataset,
        );
        item.contextValue = 'obs:drift:serviceOnly';
        item.command = {
          title: vscode.l10n.t('Open'),
          command: 'obs.drift.openServiceTrigger',
          arguments: [{ triggerId: node.trigger.id }],
        };
        return item;
      }
      case 'note':
        return new vscode.TreeItem(node.label);
    }
  }

  getChildren(node?: Node): Node[] {
    if (node === undefined)
      return driftRoots(
        this.model.snapshot(),
        workspacePath,
        (f) => this.sloRowOf(f),
        (f) => this.rowOf(f),
        (t, c) => this.onlyRowOf(t, c),
      );
    if (node.kind !== 'file') return [];
    return node.of === undefined
      ? differenceItems(this.model.fileDrift(node.uri), this.recipients())
      : sloDifferenceItems(this.model.sloFileDrift(node.uri), this.recipients());
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

/** Compare with Service on a file's row or a difference: a trigger's by its index, another file's by its uri. */
function compareCommand(node: Extract<Node, { kind: 'file' | 'difference' }>): vscode.Command {
  const title = vscode.l10n.t('Compare with Service');
  if (node.of !== undefined) return { title, command: 'obs.slo.compare', arguments: [vscode.Uri.parse(node.uri)] };
  const index = node.kind === 'difference' ? node.index : undefined;
  return {
    title,
    command: 'obs.drift.compare',
    arguments: [index === undefined ? { uri: node.uri } : { uri: node.uri, index }],
  };
}
