// The forms' pure logic: request bodies built from form values, the burn alert PUT body, the
// definitions diff, where problems land, the messages and persisted state, and the page's CSP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFINITION_TYPE_NAMES, type BurnAlert, type DatasetDefinitions } from '../../src/api/schemas';
import {
  createApiKeyBody,
  createApiKeyProblems,
  describeUnsavedApiKeyUpdate,
  updateApiKeyProblems,
  copyText,
} from '../../src/webview/protocol/apiKeyForm';
import {
  buildBurnAlertUpdate,
  burnAlertProblems,
  describeUnsavedBurnAlert,
  isSameVersion,
  recipientOptions,
} from '../../src/webview/protocol/burnAlertForm';
import {
  checkDefinitionsUpdate,
  definitionWarnings,
  definitionsDatasetProblem,
  placeRefusedColumns,
  describeUnsavedDefinitions,
  diffDefinitions,
  rowsFromDefinitions,
} from '../../src/webview/protocol/datasetDefinitionsForm';
import { contentSecurityPolicy, renderWebviewPage } from '../../src/extension/core/webviewPage';
import { PageL10n } from '../../src/webview/protocol/pageL10n';
import { renderNoticePage } from '../../src/extension/forms/html';
import { ApiKeyFromWebview, ApiKeyState, BurnAlertState, VIEW_TYPES } from '../../src/webview/protocol/messages';
import { pathSegments, problemsFromFailure, tableResolver } from '../../src/webview/protocol/problems';

const root = join(import.meta.dirname, '..', '..');

// --- buildBurnAlertUpdate ----------------------------------------------------------------------------------

const exhaustion: BurnAlert = {
  id: 'ba_1',
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 240,
  description: 'four hours',
  triggered: true,
  created_at: '2024-03-01T10:00:00.000Z',
  updated_at: '2024-03-02T10:00:00.000Z',
  slo: { id: 'slo_1' },
  recipients: [
    {
      id: 'rcp_pd',
      type: 'pagerduty',
      target: 'Primary',
      details: { pagerduty_severity: 'critical', variables: [{ name: 'team', value: 'edge' }] },
    },
    { type: 'email', target: 'old@example.com' },
  ],
};

const budget: BurnAlert = {
  id: 'ba_2',
  alert_type: 'budget_rate',
  budget_rate_window_minutes: 120,
  budget_rate_decrease_threshold_per_million: 50_000,
  description: '',
  updated_at: '2024-03-02T10:00:00.000Z',
};

test('buildBurnAlertUpdate without edits carries every writable field as loaded and nothing read-only', () => {
  assert.deepEqual(buildBurnAlertUpdate(exhaustion, {}), {
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 240,
    recipients: exhaustion.recipients,
    description: 'four hours',
  });
});

test('buildBurnAlertUpdate applies an edit and keeps every field the user did not touch', () => {
  assert.deepEqual(buildBurnAlertUpdate(exhaustion, { exhaustion_minutes: 30 }), {
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 30,
    recipients: exhaustion.recipients,
    description: 'four hours',
  });
});

test("buildBurnAlertUpdate keeps a budget_rate alert's budget fields and never sends exhaustion_minutes", () => {
  const body = buildBurnAlertUpdate(budget, { description: 'edited', recipients: [{ id: 'rcp_1' }] });
  assert.deepEqual(body, {
    alert_type: 'budget_rate',
    budget_rate_window_minutes: 120,
    budget_rate_decrease_threshold_per_million: 50_000,
    recipients: [{ id: 'rcp_1' }],
    description: 'edited',
  });
  assert.ok(!('exhaustion_minutes' in buildBurnAlertUpdate(budget, { exhaustion_minutes: 5 })));
});

test("buildBurnAlertUpdate follows a changed alert_type: the old type's numbers are dropped", () => {
  const body = buildBurnAlertUpdate(exhaustion, {
    alert_type: 'budget_rate',
    budget_rate_window_minutes: 60,
    budget_rate_decrease_threshold_per_million: 1,
  });
  assert.equal(body.exhaustion_minutes, undefined);
  assert.equal(body.budget_rate_window_minutes, 60);
});

test('buildBurnAlertUpdate: a cleared number is left out, and the rules then ask for it', () => {
  assert.ok(!('exhaustion_minutes' in buildBurnAlertUpdate(exhaustion, { exhaustion_minutes: null })));
  assert.deepEqual(burnAlertProblems(exhaustion, { exhaustion_minutes: null }).fields, {
    exhaustion_minutes: ['Exhaustion minutes is required when the alert type is Exhaustion time.'],
  });
});

test('buildBurnAlertUpdate keeps an empty description as an empty string (not dropped)', () => {
  assert.equal(buildBurnAlertUpdate(budget, {}).description, '');
  assert.equal(buildBurnAlertUpdate(exhaustion, { description: '' }).description, '');
});

test("burn alert field rules come from UpdateBurnAlertRequest and land on their fields, in the user's words", () => {
  const p = burnAlertProblems(exhaustion, { exhaustion_minutes: -1, description: 'x'.repeat(1024), recipients: [] });
  assert.deepEqual(p.fields, {
    exhaustion_minutes: ['Exhaustion minutes must be 0 or more.'],
    recipients: ['Add at least one recipient.'],
    description: ['Description can have at most 1,023 characters.'],
  });
  assert.deepEqual(burnAlertProblems(budget, { budget_rate_window_minutes: 59, recipients: [{ id: 'r' }] }).fields, {
    budget_rate_window_minutes: ['Budget rate window (minutes) must be at least 60.'],
  });
  assert.deepEqual(
    burnAlertProblems(budget, { budget_rate_decrease_threshold_per_million: 2_000_000, recipients: [{ id: 'r' }] })
      .fields,
    {
      budget_rate_decrease_threshold_per_million: [
        'Budget decrease threshold (per million) must be at most 1,000,000.',
      ],
    },
  );
  assert.deepEqual(burnAlertProblems(exhaustion, { exhaustion_minutes: 1.5 }).fields, {
    exhaustion_minutes: ['Exhaustion minutes must be a whole number.'],
  });
  assert.deepEqual(burnAlertProblems(budget, { recipients: [{ type: 'email' }] }).fields, {
    recipients: ['Each recipient needs an ID, or both a type and a target.'],
  });
});

test('isSameVersion compares updated_at, or the writable content when the service gives none', () => {
  assert.equal(isSameVersion(exhaustion, { ...exhaustion }), true);
  assert.equal(isSameVersion(exhaustion, { ...exhaustion, updated_at: '2024-03-03T00:00:00.000Z' }), false);
  const { updated_at: _u, ...noStamp } = exhaustion;
  assert.equal(isSameVersion(noStamp, { ...noStamp, triggered: false }), true);
  assert.equal(isSameVersion(noStamp, { ...noStamp, description: 'other' }), false);
});

test('recipientOptions lists each recipient with an id once, labelled by type and target', () => {
  const options = recipientOptions([
    exhaustion.recipients,
    [
      { id: 'rcp_pd', type: 'pagerduty', target: 'Primary' },
      { id: 'rcp_mail', type: 'email', target: 'a@example.com' },
      { type: 'email', target: 'no-id@example.com' },
    ],
    undefined,
  ]);
  assert.deepEqual(options, [
    { id: 'rcp_mail', label: 'email: a@example.com (rcp_mail)' },
    { id: 'rcp_pd', label: 'pagerduty: Primary (rcp_pd)' },
  ]);
});

test('describeUnsavedBurnAlert names each unsaved edit, so a restored form without its connection loses nothing', () => {
  const edits = {
    description: 'page "ops"',
    exhaustion_minutes: 30,
    recipients: [{ id: 'rcp_x' }, { type: 'email', target: 'ops@example.com' }],
  };
  assert.equal(
    describeUnsavedBurnAlert(exhaustion, edits),
    'Your unsaved changes (not sent): exhaustion_minutes = 30, description = "page \\"ops\\"", recipients: rcp_x, email:ops@example.com.',
  );
});

test('describeUnsavedBurnAlert says nothing when there are no edits, or the edits equal the alert as loaded', () => {
  assert.equal(describeUnsavedBurnAlert(exhaustion, {}), undefined);
  assert.equal(
    describeUnsavedBurnAlert(exhaustion, {
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 240,
      description: 'four hours',
    }),
    undefined,
  );
});

test('describeUnsavedBurnAlert names a changed type with its numbers, a cleared number and number text as typed', () => {
  assert.equal(
    describeUnsavedBurnAlert(
      exhaustion,
      { alert_type: 'budget_rate', budget_rate_window_minutes: 60 },
      { budget_rate_decrease_threshold_per_million: '5e' },
    ),
    'Your unsaved changes (not sent): alert_type = budget_rate, budget_rate_window_minutes = 60, budget_rate_decrease_threshold_per_million = "5e" (not a number).',
  );
  assert.equal(
    describeUnsavedBurnAlert(exhaustion, { exhaustion_minutes: null }),
    'Your unsaved changes (not sent): exhaustion_minutes cleared.',
  );
});

test('describeUnsavedBurnAlert ignores numbers the resulting alert type never sends, and says when all recipients were removed', () => {
  assert.equal(describeUnsavedBurnAlert(budget, { exhaustion_minutes: 5 }), undefined);
  assert.equal(
    describeUnsavedBurnAlert(exhaustion, { recipients: [] }),
    'Your unsaved changes (not sent): recipients: none.',
  );
});

test('describeUnsavedBurnAlert names a recipient ID typed and not added, as typed; blank text is nothing', () => {
  assert.equal(
    describeUnsavedBurnAlert(exhaustion, {}, {}, ' rcp_typed'),
    'Your unsaved changes (not sent): recipient ID " rcp_typed" (typed, not added).',
  );
  assert.equal(describeUnsavedBurnAlert(exhaustion, {}, {}, '  '), undefined);
});

test('describeUnsavedBurnAlert without a loaded alert names every edit', () => {
  assert.equal(
    describeUnsavedBurnAlert(undefined, { description: '', recipients: [{ id: 'rcp_x' }] }),
    'Your unsaved changes (not sent): description = "", recipients: rcp_x.',
  );
});

// --- diffDefinitions -----------------------------------------------------------------------------------

function definitions(set: Partial<Record<string, { name: string; column_type?: string }>>): DatasetDefinitions {
  return Object.fromEntries(DEFINITION_TYPE_NAMES.map((t) => [t, set[t] ?? null])) as DatasetDefinitions;
}

const loadedDefs = definitions({
  trace_id: { name: 'trace.trace_id', column_type: 'column' },
  route: { name: 'dc.route', column_type: 'derived_column' },
});

test('describeUnsavedDefinitions names each unsaved change, so a restored form without its connection loses nothing', () => {
  const rows = rowsFromDefinitions(loadedDefs);
  rows.route = { name: '' };
  rows.log_message = { name: 'notes' };
  assert.equal(
    describeUnsavedDefinitions(loadedDefs, rows),
    'Your unsaved changes (not sent): route cleared, log_message = "notes".',
  );
});

test('describeUnsavedDefinitions says nothing when the rows are as loaded', () => {
  assert.equal(describeUnsavedDefinitions(loadedDefs, rowsFromDefinitions(loadedDefs)), undefined);
});

test('diffDefinitions sends nothing when the rows are as loaded', () => {
  assert.deepEqual(diffDefinitions(loadedDefs, rowsFromDefinitions(loadedDefs)), {});
});

test('diffDefinitions sends only the changed types', () => {
  const rows = rowsFromDefinitions(loadedDefs);
  rows.span_id = { name: 'trace.span_id' };
  rows.trace_id = { name: 'trace.id', column_type: 'column' };
  assert.deepEqual(diffDefinitions(loadedDefs, rows), {
    span_id: { name: 'trace.span_id' },
    trace_id: { name: 'trace.id', column_type: 'column' },
  });
});

test('diffDefinitions clears a set definition with name "" and ignores an unset one left empty', () => {
  const rows = rowsFromDefinitions(loadedDefs);
  rows.route = { name: '' };
  rows.user = { name: '' };
  assert.deepEqual(diffDefinitions(loadedDefs, rows), { route: { name: '' } });
});

test('diffDefinitions counts a changed column_type as a change, and a missing row as untouched', () => {
  assert.deepEqual(
    diffDefinitions(loadedDefs, { trace_id: { name: 'trace.trace_id', column_type: 'derived_column' } }),
    {
      trace_id: { name: 'trace.trace_id', column_type: 'derived_column' },
    },
  );
  assert.deepEqual(diffDefinitions(loadedDefs, { trace_id: { name: 'trace.trace_id' } }), {});
});

test('definitionWarnings flags unknown columns (not derived ones) and span_kind without annotation_type', () => {
  const known = new Set(['trace.trace_id', 'span.kind']);
  assert.deepEqual(
    Object.keys(
      definitionWarnings(
        {
          trace_id: { name: 'trace.trace_id' },
          span_id: { name: 'nope' },
          route: { name: 'dc.route', column_type: 'derived_column' },
          span_kind: { name: 'span.kind' },
        },
        known,
      ),
    ),
    ['span_id', 'span_kind'],
  );
  assert.deepEqual(definitionWarnings({ span_kind: { name: 'span.kind' }, span_id: { name: 'nope' } }, known), {
    span_id: [
      '"nope" is not a column of this dataset. If it is a derived column, set its column type to Derived column.',
    ],
    span_kind: [
      'Marking span events and links with Span kind is deprecated: set Annotation type to the column that marks them.',
    ],
  });
  assert.deepEqual(
    definitionWarnings({ span_kind: { name: 'span.kind' }, annotation_type: { name: 'meta.type' } }, null),
    {},
  );
});

test('a column name longer than a column name can be (255 characters) is refused before sending, saying its real length', () => {
  const rows = { ...rowsFromDefinitions(loadedDefs), log_message: { name: 'x'.repeat(5000) } };
  rows.user = { name: 'u'.repeat(255) };
  assert.deepEqual(checkDefinitionsUpdate(loadedDefs, rows), {
    ok: false,
    reason: {
      fields: {
        log_message: ['Log message can have at most 255 characters, the most a column name has; it has 5,000.'],
      },
      form: [],
    },
  });
});

test("a name longer than a column's is echoed in a problem cut to its first 100 characters, with its real length", () => {
  const long = `${'y'.repeat(100)}${'z'.repeat(200)}`;
  const failure = { kind: 'http', status: 422, message: `unknown column(s): span_id -> "${long}"`, fieldProblems: [] };
  const placed = placeRefusedColumns({ fields: {}, form: [failure.message] }, failure, { span_id: { name: long } });
  assert.deepEqual(placed.fields, {
    span_id: [`The service refused the column "${'y'.repeat(100)}…" (300 characters).`],
  });
});

test("definitions of the environment-wide __all__, of no dataset and of a name the service cannot take are refused in the user's words", () => {
  assert.equal(
    definitionsDatasetProblem('__all__'),
    'Dataset definitions belong to one dataset: the environment-wide "__all__" has none.',
  );
  assert.equal(definitionsDatasetProblem('api-gateway'), undefined);
  assert.equal(definitionsDatasetProblem(''), 'Give the name (slug) of a dataset.');
  assert.equal(
    definitionsDatasetProblem('a/b'),
    'A dataset name (slug) has no "/", "?", "#" or spaces and is not "." or "..".',
  );
});

// --- API key values -------------------------------------------------------------------------------------

test('the create body is the 4.1 document built from the form values', () => {
  assert.deepEqual(
    createApiKeyBody({ name: 'k', keyType: 'ingest', disabled: true, createDatasets: false, environmentId: 'env_1' }),
    {
      data: {
        type: 'api-keys',
        attributes: { key_type: 'ingest', name: 'k', disabled: true, permissions: { create_datasets: false } },
        relationships: { environment: { data: { id: 'env_1', type: 'environments' } } },
      },
    },
  );
});

test('API key field rules come from the request schemas and land on the form fields', () => {
  assert.deepEqual(
    createApiKeyProblems({ name: ' ', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: '' }),
    {
      fields: { name: ['Name is required.'], environmentId: ['Environment ID is required.'] },
      form: [],
    },
  );
  assert.deepEqual(updateApiKeyProblems({ id: '', name: 'ok', disabled: false }), {
    fields: { id: ['Key ID is required.'] },
    form: [],
  });
});

test('the API key forms set no length limit on a name: neither the spec nor the service facts give one', () => {
  const create = { keyType: 'ingest' as const, disabled: false, createDatasets: false, environmentId: 'env_1' };
  assert.deepEqual(createApiKeyProblems({ ...create, name: 'n'.repeat(500) }), { fields: {}, form: [] });
  assert.deepEqual(updateApiKeyProblems({ id: 'k', name: 'n'.repeat(500), disabled: false }), { fields: {}, form: [] });
});

test('describeUnsavedApiKeyUpdate names the values that differ from the key as last known', () => {
  const known = { id: 'hcxik_1', name: 'ingest', disabled: false };
  assert.equal(
    describeUnsavedApiKeyUpdate({ id: 'hcxik_1', name: 'ingest <old>', disabled: true }, known),
    'Your unsaved changes (not sent): name = "ingest <old>", disabled = true.',
  );
});

test('describeUnsavedApiKeyUpdate says nothing when the values are as known, or an empty form is untouched', () => {
  assert.equal(
    describeUnsavedApiKeyUpdate(
      { id: 'hcxik_1', name: 'ingest', disabled: false },
      { id: 'hcxik_1', name: 'ingest', disabled: false },
    ),
    undefined,
  );
  assert.equal(describeUnsavedApiKeyUpdate({ id: '', name: '', disabled: false }, undefined), undefined);
});

test('describeUnsavedApiKeyUpdate without a known key names every value typed into the form', () => {
  assert.equal(
    describeUnsavedApiKeyUpdate({ id: 'hcxik_9', name: 'ci', disabled: false }, undefined),
    'Your unsaved changes (not sent): id = "hcxik_9", name = "ci".',
  );
});

test('copyText gives id:secret (the Bearer form) or the secret alone', () => {
  assert.equal(copyText('idAndSecret', { id: 'hcxik_1', secret: 's3' }), 'hcxik_1:s3');
  assert.equal(copyText('secret', { id: 'hcxik_1', secret: 's3' }), 's3');
});

// --- where problems land -----------------------------------------------------------------------------------

test('pathSegments reads JSON pointers and dotted paths with indexes', () => {
  assert.deepEqual(pathSegments('/data/attributes/name'), ['data', 'attributes', 'name']);
  assert.deepEqual(pathSegments('/a~1b/0'), ['a/b', 0]);
  assert.deepEqual(pathSegments('recipients[0].id'), ['recipients', 0, 'id']);
  assert.deepEqual(pathSegments('data.attributes.permissions.create_datasets'), [
    'data',
    'attributes',
    'permissions',
    'create_datasets',
  ]);
});

test('service field problems land on the field they name (pointer first), the rest at the top', () => {
  const resolve = tableResolver({ 'data.attributes.name': 'name', 'data.attributes.permissions': 'createDatasets' });
  const problems = problemsFromFailure(
    {
      kind: 'http',
      status: 422,
      message: 'create API key: validation failed',
      fieldProblems: [
        { field: 'data.attributes.name', pointer: '/data/attributes/name', message: 'already exists' },
        { field: 'permissions.create_datasets', message: 'not allowed' },
        { field: 'X-Header', message: 'bad header' },
      ],
    },
    resolve,
  );
  assert.deepEqual(problems, {
    fields: { name: ['already exists'], createDatasets: ['not allowed'] },
    form: ['bad header', 'create API key: validation failed'],
  });
});

test('a failure without field details shows its message at the top', () => {
  const problems = problemsFromFailure(
    { kind: 'network', message: 'could not connect', fieldProblems: [] },
    tableResolver({}),
  );
  assert.deepEqual(problems, { fields: {}, form: ['could not connect'] });
});

// --- messages and state -----------------------------------------------------------------------------------

test('the persisted API key state cannot carry a secret', () => {
  const ok = { mode: 'create', connectionId: 'c', created: { id: 'k', name: 'n' } };
  assert.equal(ApiKeyState.safeParse(ok).success, true);
  assert.equal(ApiKeyState.safeParse({ ...ok, created: { id: 'k', name: 'n', secret: 's' } }).success, false);
  assert.equal(ApiKeyState.safeParse({ ...ok, secret: 's' }).success, false);
});

test('webview messages are strict: unknown types and extra members are refused', () => {
  assert.equal(ApiKeyFromWebview.safeParse({ type: 'copy', what: 'secret' }).success, true);
  assert.equal(ApiKeyFromWebview.safeParse({ type: 'copy', what: 'secret', text: 'x' }).success, false);
  assert.equal(ApiKeyFromWebview.safeParse({ type: 'eval', code: '1' }).success, false);
});

test('the burn alert state keeps the loaded alert and the edits, and is refused without context', () => {
  const state = {
    context: { connectionId: 'c', dataset: 'd', sloId: 's', alertId: 'a' },
    loaded: exhaustion,
    edits: { description: 'x' },
  };
  assert.equal(BurnAlertState.safeParse(state).success, true);
  assert.equal(BurnAlertState.safeParse({ loaded: exhaustion, edits: {} }).success, false);
});

test('every form view type is an onWebviewPanel activation event (so a reload restores it)', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { activationEvents: string[] };
  for (const viewType of Object.values(VIEW_TYPES)) {
    assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${viewType}`), viewType);
  }
});

// --- the page ---------------------------------------------------------------------------------------------

test('the form page has a strict CSP with the nonce on its one script and one stylesheet', () => {
  const html = renderWebviewPage({
    title: 'T',
    cspSource: 'https://x.vscode-cdn.net',
    nonce: 'abc123',
    scriptUri: 'https://x/s.js',
    styleUri: 'https://x/f.css',
    l10n: { language: 'en', bundle: null },
    loading: 'Loading…',
  });
  assert.equal(
    contentSecurityPolicy('https://x.vscode-cdn.net', 'abc123'),
    "default-src 'none'; script-src 'nonce-abc123'; style-src https://x.vscode-cdn.net 'nonce-abc123'; font-src https://x.vscode-cdn.net; img-src https://x.vscode-cdn.net",
  );
  assert.ok(html.includes(`content="default-src 'none'; script-src 'nonce-abc123';`));
  // The one script that runs; the language block is JSON data, which a browser never executes.
  assert.deepEqual(
    [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]),
    ['<script type="application/json" id="obs-l10n">', '<script type="module" nonce="abc123" src="https://x/s.js">'],
  );
  assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');
});

test('the page scripts hand lit-html no string as markup and set no inline style attribute (the CSP refuses those)', () => {
  const dir = join(root, 'src', 'webview');
  const forbidden: [string, RegExp][] = [
    ['a directive that parses markup', /unsafe-(html|svg|mathml)|unsafe(HTML|SVG|MathML)/],
    ['styleMap, whose first drawing writes a style attribute', /style-map|styleMap/],
    ['markup parsed from a string', /\.(innerHTML|outerHTML)\b|insertAdjacentHTML/],
    ['a style attribute in a template', /\sstyle=/],
  ];
  const found = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => {
      const text = readFileSync(join(dir, f), 'utf8');
      return forbidden.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${f}: ${what}`);
    });
  assert.deepEqual(found, []);
});

test('the page carries its language and translations as JSON that no translation can break out of', () => {
  const l10n = { language: 'de', bundle: { 'Loading…': 'Lädt </script><script>alert(1)</script> & mehr' } };
  const html = renderWebviewPage({
    title: 'T',
    cspSource: 'https://x',
    nonce: 'n',
    scriptUri: 'https://x/s.js',
    styleUri: 'https://x/f.css',
    l10n,
    loading: 'Lädt <b>',
  });
  assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="de">'));
  assert.ok(html.includes('<main id="app" aria-busy="true"><p>Lädt &lt;b&gt;</p></main>'));
  const block = /<script type="application\/json" id="obs-l10n">(.*?)<\/script>/s.exec(html)?.[1];
  assert.equal(
    block,
    '{"language":"de","bundle":{"Loading…":"Lädt \\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e \\u0026 mehr"}}',
  );
  assert.deepEqual(PageL10n.parse(JSON.parse(block ?? '')), l10n);
});

test('the notice page escapes its text and runs no script', () => {
  const html = renderNoticePage('Gone', '<img src=x onerror=alert(1)>', 'https://x');
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
  assert.ok(!html.includes('<script'));
});
