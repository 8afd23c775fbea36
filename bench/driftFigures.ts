// Drift figures: 2,000 local trigger files against 2,000 service triggers, once the service's lists
// are fetched (in memory). Measured in this process on this tree's sources; the floor is the least any
// drift check does: JSON.parse of every file and one Map lookup of its id.
import {
  driftOfFile,
  onlyOnService,
  readTriggerFile,
  ServiceIndex,
  triggerFileText,
  type ServiceTrigger,
} from '../src/triggerFiles';
import { DriftModel } from '../src/extension/sync/driftModel';
import { Recorded, type Figure, type Metric } from './figures';

const DATASETS = 20;

/** `n` triggers as the service lists them (read-only members, the query_id beside an inline query), by dataset. */
export function serviceTriggers(n: number): Map<string, ServiceTrigger[]> {
  const out = new Map<string, ServiceTrigger[]>();
  for (let i = 0; i < n; i++) {
    const dataset = `dataset-${i % DATASETS}`;
    const t: ServiceTrigger = {
      id: `trg_${i}`,
      name: `Trigger ${i}`,
      dataset_slug: dataset,
      description: i % 3 === 0 ? null : `Alert ${i}`,
      threshold: { op: '>', value: i % 50, exceeded_limit: 1 },
      frequency: 300,
      alert_type: 'on_change',
      disabled: false,
      triggered: i % 7 === 0,
      recipients: [
        { id: `rcp_${i % 13}`, type: 'email', target: `team${i % 13}@example.com` },
        { id: `rcp_pd_${i % 5}`, type: 'pagerduty', target: 'PD', details: { pagerduty_severity: 'critical' } },
      ],
      query: {
        calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
        filters: [
          { column: 'status_code', op: '>=', value: 500 },
          { column: 'service.name', op: '=', value: `svc-${i % 40}` },
        ],
        breakdowns: ['http.route'],
        time_range: 1800,
      },
      query_id: `q_${i}`,
      tags: [{ key: 'team', value: `t${i % 9}` }],
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-02T00:00:00Z',
    };
    const list = out.get(dataset) ?? [];
    list.push(t);
    out.set(dataset, list);
  }
  return out;
}

/** The local files: the pulled text of each trigger; every tenth edited, every twentieth without its id. */
export function localFiles(lists: Map<string, ServiceTrigger[]>): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  for (const [dataset, triggers] of lists) {
    for (const t of triggers) {
      const value = JSON.parse(triggerFileText(t)) as Record<string, unknown>;
      if (i % 10 === 0) value.threshold = { op: '>', value: 999, exceeded_limit: 1 };
      if (i % 20 === 5) delete value.id;
      out.set(`file:///w/triggers/${dataset}/${t.id}.trigger.json`, `${JSON.stringify(value, null, 2)}\n`);
      i++;
    }
  }
  return out;
}

export function driftFigures(quick: boolean): Figure[] {
  const n = quick ? 200 : 2000;
  const lists = serviceTriggers(n);
  const files = localFiles(lists);
  const suffix = quick ? ` (${n})` : '';
  const rec = new Recorded();
  const core: Metric = {
    key: 'core',
    title: `Drift, ${n.toLocaleString('en')} files vs ${n.toLocaleString('en')} service triggers, lists fetched (CLI core)${suffix}`,
    unit: 'ms',
  };
  const editor: Metric = {
    key: 'editor',
    title: `Drift, ${n.toLocaleString('en')} files vs ${n.toLocaleString('en')} service triggers, lists cached (editor model)${suffix}`,
    unit: 'ms',
  };

  const floor = (): number => {
    const t = performance.now();
    const byId = new Map<string, unknown>();
    for (const list of lists.values()) for (const s of list) byId.set(s.id, s);
    let found = 0;
    for (const text of files.values()) if (byId.has(String((JSON.parse(text) as { id?: unknown }).id))) found++;
    if (found === 0) throw new Error('the floor found nothing');
    return performance.now() - t;
  };

  const coreRun = (): number => {
    const t = performance.now();
    const index = new ServiceIndex();
    for (const [dataset, triggers] of lists) index.add(dataset, { state: 'listed', triggers });
    const drift = [...files].map(([uri, text]) => driftOfFile(uri, readTriggerFile(text), index));
    const only = onlyOnService(drift, index);
    const ms = performance.now() - t;
    const differs = drift.filter((d) => d.status === 'differs').length;
    if (differs !== n / 10 || only.length !== 0)
      throw new Error(`unexpected drift: ${differs} differ, ${only.length} only on the service`);
    return ms;
  };

  // The editor's model with every list already cached: what a connection switch back or a refresh of the files costs.
  // The bench holds trigger files only: the reads of burn alerts and definitions are never asked.
  const none = (): Promise<never> => Promise.reject(new Error('no burn alert or definitions file in the bench'));
  const api = {
    listTriggers: (d: string) => Promise.resolve({ data: lists.get(d) ?? [] }),
    listRecipients: () => Promise.resolve({ data: [] }),
    listSlos: none,
    listBurnAlerts: none,
    getBurnAlert: none,
    updateDatasetDefinitions: none,
  };
  const model = new DriftModel({
    workspace: { list: () => Promise.resolve([...files.keys()]), read: (uri) => Promise.resolve(files.get(uri)) },
    connection: () => Promise.resolve({ id: 'bench', name: 'bench', api }),
    concurrency: () => 4,
  });
  let primed = false;
  const editorRun = async (): Promise<number> => {
    if (!primed) {
      await model.refresh(false);
      primed = true;
    }
    const t = performance.now();
    await model.refresh(false);
    const ms = performance.now() - t;
    if (model.snapshot().counts.differs !== n / 10) throw new Error('unexpected editor drift');
    return ms;
  };

  return [
    {
      id: 'drift',
      metrics: [core, editor],
      async measure(side) {
        if (side.name === 'before') {
          rec.setNote('before', 'no drift before triggers as code');
          return;
        }
        if (side.name === 'floor') {
          const f = floor();
          rec.add(core.key, 'floor', f);
          rec.add(editor.key, 'floor', f);
          return;
        }
        rec.add(core.key, side.name, coreRun());
        rec.add(editor.key, side.name, await editorRun());
      },
      samples: (m, s) => rec.samples(m, s),
      note: (s) => rec.note(s),
    },
  ];
}
