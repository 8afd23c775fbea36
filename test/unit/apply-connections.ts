// The connections "Apply Trigger Files to Connection..." is tested against: three saved connections (staging,
// the active one; prod-eu, which looks like production; dev), each with a service of its own that records every
// call made to it; and the apply commands of the tests of environments. Shared by the sync-apply-* tests.
import assert from 'node:assert/strict';
import { vscode } from './vscode-fake';
import type { ServiceTrigger } from '../../src/triggerFiles';
import type { ActiveConnection, ConnectionProfile } from '../../src/extension/connections';
import type { FolderEnvironments } from '../../src/extension/sync/applyDestination';
import { FakePlanView } from './plan-view-fake';
import { Feedback } from '../../src/extension/core/feedback';
import { Settings } from '../../src/extension/core/settings';
import { ApplyLocks } from '../../src/extension/core/applyLocks';
import { ApplyCommands, type ApplyDeps } from '../../src/extension/sync/applyCommands';
import { serviceTrigger } from './serviceTriggers';

export const trigger = (id: string, name: string, value = 5): ServiceTrigger =>
  serviceTrigger(id, name, 'api', value, { updated_at: '2026-01-01T00:00:00Z' });

/** One connection's service: its triggers of dataset `api`, and every call made to it, in order. */
export class RecordingService {
  readonly calls: string[] = [];
  private created = 0;
  constructor(
    readonly prefix: string,
    readonly triggers: ServiceTrigger[],
  ) {}
  listTriggers(dataset: string) {
    this.calls.push(`list ${dataset}`);
    return Promise.resolve({ data: structuredClone(this.triggers.filter((t) => t.dataset_slug === dataset)) });
  }
  listColumns(dataset: string) {
    this.calls.push(`columns ${dataset}`);
    return Promise.resolve({ data: [{ key_name: 'duration_ms' }] });
  }
  listRecipients() {
    this.calls.push('recipients');
    return Promise.resolve({ data: [] });
  }
  getTrigger(_dataset: string, id: string) {
    this.calls.push(`get ${id}`);
    const found = this.triggers.find((t) => t.id === id);
    return found === undefined
      ? Promise.reject(Object.assign(new Error('gone'), { status: 404 }))
      : Promise.resolve({ data: structuredClone(found) });
  }
  createTrigger(dataset: string, body: Record<string, unknown>) {
    const made: ServiceTrigger = {
      ...body,
      name: String(body.name),
      id: `${this.prefix}-new-${++this.created}`,
      dataset_slug: dataset,
      updated_at: '2026-01-02T00:00:00Z',
    };
    this.calls.push(`create ${made.name} as ${made.id}`);
    this.triggers.push(made);
    return Promise.resolve({ data: structuredClone(made) });
  }
  replaceTrigger(dataset: string, id: string, body: Record<string, unknown>) {
    this.calls.push(`replace ${id}`);
    const i = this.triggers.findIndex((t) => t.id === id);
    const stored: ServiceTrigger = {
      ...body,
      name: String(body.name),
      id,
      dataset_slug: dataset,
      updated_at: '2026-01-02T00:00:00Z',
    };
    this.triggers.splice(i, 1, stored);
    return Promise.resolve({ data: structuredClone(stored) });
  }
  deleteTrigger(_dataset: string, id: string) {
    this.calls.push(`delete ${id}`);
    return Promise.resolve({});
  }
}

const profile = (id: string, name: string): ConnectionProfile =>
  ({
    id,
    name,
    baseUrl: `https://${id}.example.invalid`,
    uiUrl: '',
    team: 't',
    environmentId: id,
  }) as ConnectionProfile;
export const STAGING = profile('stg', 'staging');
export const PROD = profile('prd', 'prod-eu');
export const DEV = profile('dev', 'dev');

/**
 * The apply commands of a test of environments: its connections, plan view and environments files, with a
 * settings store of defaults, a silent log, no linter finding, and no Compare.
 */
export function environmentApplyCommands(
  deps: Pick<ApplyDeps, 'connections' | 'view' | 'environments'>,
): ApplyCommands {
  return new ApplyCommands({
    ...deps,
    settings: new Settings({
      get: () => undefined,
      inspect: () => undefined,
      update: () => Promise.resolve(),
      onDidChange: () => ({ dispose: () => undefined }),
    }),
    feedback: new Feedback(
      { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      () => undefined,
    ),
    lint: () => Promise.resolve([]),
    onWritten: () => undefined,
    locks: new ApplyLocks(),
    compare: () => Promise.reject(new Error('no Compare in these tests')),
    openServiceTrigger: () => Promise.reject(new Error('no service trigger opened in these tests')),
  });
}

/**
 * Runs "Apply Trigger Files to Connection..." picking the item labelled `label`, over `connections` (the first is
 * the active one), confirming the plan (typing the name a production-like one asks for); asserts the plan, when
 * one was shown, was applied. Returns what the editor said without a plan (nothing to change).
 */
export async function applyPicking(
  label: string,
  connections: readonly ActiveConnection[],
  environments?: FolderEnvironments,
): Promise<string[]> {
  const said: string[] = [];
  Object.assign(vscode.window, {
    showQuickPick: (items: readonly { label: string }[]) => Promise.resolve(items.find((i) => i.label === label)),
    showInformationMessage: (message: string) => {
      said.push(message);
      return Promise.resolve(undefined);
    },
  });
  const byId = new Map(connections.map((c) => [c.profile.id, c]));
  const connectionFor = (id: string): Promise<ActiveConnection> => {
    const c = byId.get(id);
    return c === undefined ? Promise.reject(new Error(`no connection ${id}`)) : Promise.resolve(c);
  };
  const active = connections[0]?.profile.id ?? '';
  const view = new FakePlanView();
  view.onReview = (model, v) => v.apply(model, model.confirm?.typeName);
  const apply = environmentApplyCommands({
    connections: {
      list: () => connections.map((c) => c.profile),
      activeProfile: () => byId.get(active)?.profile,
      connectionFor,
      requireActive: () => connectionFor(active),
    },
    view,
    environments: () => environments,
  });
  try {
    await apply.run('workspaceToConnection', []);
  } finally {
    apply.dispose();
  }
  if (view.models.length > 0) assert.equal(view.last.phase, 'applied', view.last.status.text);
  return said;
}
