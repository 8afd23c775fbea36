// Every rule: documents that break it (with the exact range, and the fix where there is one) and
// documents that keep it, at the boundaries of spec 2.6, 2.6.1 and part 8.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFixes, lint, lintBytes, RULES, type Diagnostic, type LintOptions, type RuleId } from '../../src/lint';
import { CLI_METRICS_DATASET_HINT } from '../../src/cli/lint';
import { lintSloText, sloKindOfRule } from '../../src/lint/sloLint';
import { marked, trigger, unmarked } from './lint-helpers';
import { SLO_CASES } from './lint-slo-cases';
import { lintEnvironmentsText } from '../../src/triggerFiles/environmentsLint';

interface Bad {
  title: string;
  /** Document with «markers» around the range of the one diagnostic of the rule. */
  doc: string;
  options?: LintOptions;
  /** The document after applying the diagnostic's fix (markers removed); omitted: the diagnostic has no fix. */
  fixed?: string;
  /** Text the message must contain. */
  says?: string;
  /** The document is a file's bytes: each `\\xNN` in it is that one byte (read as U+FFFD in the text). */
  bytes?: boolean;
}
interface Good {
  title: string;
  doc: string;
  options?: LintOptions;
  bytes?: boolean;
}

/** The text the linter sees of a document with `\\xNN` bytes: what TextDecoder makes of each run of them. */
const asRead = (doc: string) => doc.replace(/(\\x[0-9A-F]{2})+/g, (run) => new TextDecoder().decode(bytesOf(run)));
/** The bytes of such a document: UTF-8, except each `\\xNN`. */
function bytesOf(doc: string): Uint8Array {
  const parts = doc.split(/\\x([0-9A-F]{2})/);
  return Buffer.concat(parts.map((p, i) => (i % 2 === 1 ? Buffer.from([parseInt(p, 16)]) : Buffer.from(p, 'utf8'))));
}
/** Lints a case as the file its rule is about: a trigger file, or a burn alert or definitions file. */
function lintCase(
  c: { doc: string; options?: LintOptions; bytes?: boolean },
  text: string,
  rule: RuleId,
): Diagnostic[] {
  const kind = sloKindOfRule(rule);
  if (kind !== undefined) return lintSloText(kind, text, c.options).diagnostics;
  if (rule.startsWith('environments/')) return lintEnvironmentsText(text);
  return c.bytes === true ? lintBytes(bytesOf(unmarked(c.doc)), c.options) : lint(text, c.options);
}

const METRICS: LintOptions = { metricsDatasets: ['otel-metrics'] };
/** Columns as the service lists them: api's, and every dataset's (__all__) for environment-wide triggers. */
const COLUMNS: LintOptions = {
  columns: {
    api: {
      names: ['duration_ms', 'status_code', 'http.route', 'internal.debug_token'],
      hidden: ['internal.debug_token'],
    },
    __all__: { names: ['duration_ms', 'status_code', 'http.route', 'cpu'] },
  },
};
/** The datasets the service lists. */
const DATASETS: LintOptions = { datasets: ['api-gateway', 'checkout-service', 'metrics-hosts'] };

/** The account's recipients as the service lists them, named as the editor names them. */
const RECIPIENTS: LintOptions = {
  recipients: [
    { id: 'rcp_pd_primary', name: 'On-call (PagerDuty)', shortName: 'On-call', type: 'pagerduty' },
    {
      id: 'rcp_email_ops',
      name: 'ops@example.com (email)',
      shortName: 'ops@example.com',
      type: 'email',
      target: 'ops@example.com',
    },
  ],
};
/** Two recipients of the account with the same type and address: which one a type and target mean is not known. */
const TWINS: LintOptions = {
  recipients: [
    { id: 'rcp_ops_1', name: 'ops@example.com (email)', type: 'email', target: 'ops@example.com' },
    { id: 'rcp_ops_2', name: 'ops@example.com (email)', type: 'email', target: 'ops@example.com' },
  ],
};
const q = (body: string) => `"query": { ${body} }`;
const COUNT = '"calculations": [{ "op": "COUNT" }]';
const calc = (c: string) => q(`"calculations": [${c}], "time_range": 1800`);
const tags = (n: number) => `[${Array.from({ length: n }, (_, i) => `{ "key": "k", "value": "v${i}" }`).join(', ')}]`;
const calcs = (n: number) =>
  `[${Array.from({ length: n }, (_, i) => `{ "op": "SUM", "column": "c${i}", "name": "a${i}" }`).join(', ')}]`;
/** n arrays, then one more marked, nested around a string. */
const deeper = (n: number) => `${'['.repeat(n)}«[»"x"${']'.repeat(n + 1)}`;
const WINDOW = '"window": { "days_of_week": ["monday"], "start_time": "09:00", "end_time": "17:00" }';
/** A window schedule: the type that makes evaluation_schedule count, then the schedule. */
const windowed = (schedule: string) =>
  ['"evaluation_schedule_type": "window"', `"evaluation_schedule": ${schedule}`] as const;
/** A trigger whose members are `bytes` bytes as compact JSON (a filter value pads it), with `extra` members besides. */
function sized(bytes: number, ...extra: string[]): string {
  const padded = (pad: string, ...more: string[]) =>
    trigger(
      q(`${COUNT}, "filters": [{ "column": "note", "op": "!=", "value": "${pad}" }], "time_range": 1800`),
      ...more,
    );
  return padded('x'.repeat(bytes - Buffer.byteLength(JSON.stringify(JSON.parse(padded(''))))), ...extra);
}
/** n routes, "/r0" to "/r{n-1}". */
const routes = (n: number) => Array.from({ length: n }, (_, i) => `"/r${i}"`).join(', ');

const CASES: Record<RuleId, { bad: Bad[]; good: Good[] }> = {
  ...SLO_CASES,
  'environments/file': {
    bad: [
      {
        title: 'a member an environment does not have (a typo is never ignored)',
        doc: '{ "home": "staging", "environments": { "staging": {}, «"production": { "tresholds": {} }» } }',
        says: 'tresholds',
      },
      {
        title: 'a home that is none of the environments',
        doc: '{ «"home": "qa"», "environments": { "staging": {} } }',
        says: 'home must name one of the environments (staging)',
      },
      {
        title: 'two datasets mapped to one',
        doc: '{ "home": "s", "environments": { "s": {}, "p": { "datasets": { "a": "x", «"b": "x"» } } } }',
        says: 'b and a are both mapped to x',
      },
    ],
    good: [
      {
        title: 'a home and an environment with its variables, dataset map and an override',
        doc: JSON.stringify({
          home: 'staging',
          environments: {
            staging: { variables: { baseUrl: 'OBS_STAGING_BASE_URL', key: 'OBS_STAGING_CONFIG_KEY' } },
            production: {
              variables: { baseUrl: 'OBS_PRODUCTION_BASE_URL', key: 'OBS_PRODUCTION_CONFIG_KEY' },
              datasets: { checkout: 'checkout-prod' },
              triggers: { checkout: { 'High error rate': { threshold: { value: 50 } } } },
            },
          },
        }),
      },
    ],
  },
  'json/syntax': {
    bad: [
      { title: 'trailing comma', doc: '{ "name": "x", «}»', says: 'trailing comma' },
      { title: 'half-typed member', doc: '{ "name": "x", "frequency": «»', says: 'a value is expected' },
      { title: 'comment', doc: '«// note»\n{}', says: 'comments are not allowed' },
      { title: 'empty file', doc: '«  »', says: 'the file is empty' },
    ],
    good: [{ title: 'a valid trigger', doc: trigger() }],
  },
  'json/root-type': {
    bad: [
      { title: 'a number', doc: '«42»', says: 'the file holds a number' },
      { title: 'a string in the array', doc: `[${trigger()}, «"x"»]`, says: 'element 1 is a string' },
    ],
    good: [
      { title: 'an empty array', doc: '[]' },
      { title: 'an array of triggers', doc: `[${trigger()}, ${trigger('"name": "Other"')}]` },
    ],
  },
  'json/too-deep': {
    bad: [
      {
        title: 'a filter value of nested arrays, marked at the level past 512 (the value starts at level 5)',
        doc: trigger(
          q(`${COUNT}, "filters": [{ "column": "c", "op": "in", "value": ${deeper(508)} }], "time_range": 1800`),
        ),
        says: 'nested deeper than 512 levels',
      },
      { title: 'in broken JSON', doc: `[${'{"a":'.repeat(511)}«{»`, says: 'a trigger holding it is not checked' },
    ],
    good: [
      {
        title: 'a trigger (about 8 levels deep)',
        doc: `[${trigger(q(`${COUNT}, "filters": [{ "column": "c", "op": "in", "value": ["a", "b"] }], "time_range": 1800`))}]`,
      },
    ],
  },
  'json/duplicate-member': {
    bad: [
      {
        title: 'a member given twice: the first is ignored',
        doc: trigger().replace('"frequency": 900', '«"frequency": 60»,\n  "frequency": 900'),
        says: '"frequency" is given again on line 4',
        fixed: trigger('"frequency": 900'),
      },
      {
        title: 'twice in the query',
        doc: trigger(q(`«"time_range": 60», ${COUNT}, "time_range": 1800`)),
        says: 'so this one is ignored',
        fixed: trigger(q(`${COUNT}, "time_range": 1800`)),
      },
    ],
    good: [{ title: 'every member once', doc: trigger() }],
  },
  'file/encoding': {
    bad: [
      { title: 'a Latin-1 byte', doc: trigger('"description": "caf«\\xE9»"'), bytes: true, says: 'bytes E9 at byte' },
      { title: 'a cut-off sequence at the end', doc: `${trigger()}«\\xE2\\x82»`, bytes: true, says: 'bytes E2 82' },
    ],
    good: [{ title: 'UTF-8', doc: trigger('"description": "café 🙂"'), bytes: true }],
  },
  'file/too-many-problems': {
    bad: [
      {
        title: 'infos past the limit: one info counts them',
        doc: `«»${trigger('"triggered": true', '"created_at": "x"', '"updated_at": "y"')}`,
        options: { maxDiagnostics: 2 },
        says: '1 more problem not shown (0 errors, 0 warnings, 1 info)',
      },
    ],
    good: [{ title: 'a clean file under any limit', doc: trigger(), options: { maxDiagnostics: 0 } }],
  },
  'trigger/name': {
    bad: [
      { title: 'missing: the parent object', doc: `«${trigger('-name')}»`, says: 'name is missing' },
      {
        title: 'empty',
        doc: trigger('«"name": ""»'),
        says: 'name has 0 characters; expected a string of 1 to 120 characters, not blank',
      },
      {
        title: 'blank: spaces',
        doc: trigger('«"name": "   "»'),
        says: 'name is blank (only white space); expected a string of 1 to 120 characters, not blank',
      },
      {
        title: 'blank: a tab, a no-break space and an ideographic space',
        doc: trigger('«"name": "\\t\u00a0\u3000"»'),
        says: 'name is blank (only white space)',
      },
      { title: '121 characters', doc: trigger(`«"name": "${'n'.repeat(121)}"»`), says: 'name has 121 characters' },
      { title: 'a number', doc: trigger('«"name": 5»'), says: 'name is the number 5' },
      {
        title: '121 emoji: counted as characters, not UTF-16 units',
        doc: trigger(`«"name": "${'\u{1F6A8}'.repeat(121)}"»`),
        says: 'name has 121 characters; expected a string of 1 to 120 characters',
      },
    ],
    good: [
      { title: '1 character', doc: trigger('"name": "n"') },
      { title: 'white space around words', doc: trigger('"name": "  Slow requests\\n"') },
      { title: '120 characters', doc: trigger(`"name": "${'n'.repeat(120)}"`) },
      { title: '120 emoji (240 UTF-16 units)', doc: trigger(`"name": "${'\u{1F6A8}'.repeat(120)}"`) },
    ],
  },
  'trigger/description': {
    bad: [
      {
        title: '1024 characters',
        doc: trigger(`«"description": "${'d'.repeat(1024)}"»`),
        says: 'description has 1024 characters',
      },
      {
        title: '1024 emoji',
        doc: trigger(`«"description": "${'\u{1F6A8}'.repeat(1024)}"»`),
        says: 'description has 1024 characters; expected a string of at most 1023 characters',
      },
    ],
    good: [
      { title: '1023 characters', doc: trigger(`"description": "${'d'.repeat(1023)}"`) },
      { title: '1023 emoji (2046 UTF-16 units)', doc: trigger(`"description": "${'\u{1F6A8}'.repeat(1023)}"`) },
    ],
  },
  'trigger/dataset-slug': {
    bad: [{ title: 'empty', doc: trigger('«"dataset_slug": ""»') }],
    good: [{ title: 'a slug', doc: trigger('"dataset_slug": "api"') }],
  },
  'trigger/unknown-dataset': {
    bad: [
      {
        title: 'a slug the service lacks that is part of one it has, with that one as the fix',
        doc: trigger('«"dataset_slug": "checkout"»'),
        options: DATASETS,
        says: 'The service has no dataset "checkout" (did you mean "checkout-service"?)',
        fixed: trigger('"dataset_slug": "checkout-service"'),
      },
      {
        title: 'a typo',
        doc: trigger('«"dataset_slug": "api-gatway"»'),
        options: DATASETS,
        fixed: trigger('"dataset_slug": "api-gateway"'),
      },
      {
        title: 'nothing near it (no fix)',
        doc: trigger('«"dataset_slug": "billing"»'),
        options: DATASETS,
        says: 'The service has no dataset "billing": the trigger cannot be created',
      },
    ],
    good: [
      { title: 'a dataset the service has', doc: trigger('"dataset_slug": "api-gateway"'), options: DATASETS },
      { title: 'environment-wide', doc: trigger('"dataset_slug": "all"'), options: DATASETS },
      {
        title: 'the datasets are not known (no connection, or the service would not list them)',
        doc: trigger('"dataset_slug": "checkout"'),
      },
    ],
  },
  'trigger/tags': {
    bad: [
      {
        title: '11 tags',
        doc: trigger(`«"tags": ${tags(11)}»`),
        says: 'tags holds 11 items; expected at most 10 tags',
      },
    ],
    good: [{ title: '10 tags', doc: trigger(`"tags": ${tags(10)}`) }],
  },
  'trigger/tag-key': {
    bad: [
      {
        title: 'upper case',
        doc: trigger('"tags": [{ «"key": "Team"», "value": "edge" }]'),
        says: 'tag key "Team" is not allowed',
      },
      { title: '33 letters', doc: trigger(`"tags": [{ «"key": "${'k'.repeat(33)}"», "value": "edge" }]`) },
      { title: 'empty', doc: trigger('"tags": [{ «"key": ""», "value": "edge" }]') },
    ],
    good: [{ title: '32 letters', doc: trigger(`"tags": [{ "key": "${'k'.repeat(32)}", "value": "edge" }]`) }],
  },
  'trigger/tag-value': {
    bad: [
      {
        title: 'a number',
        doc: trigger('"tags": [{ "key": "team", «"value": 1» }]'),
        says: 'tag value is the number 1',
      },
      {
        title: 'starts with a digit',
        doc: trigger('"tags": [{ "key": "team", «"value": "1st"» }]'),
        says: 'tag value "1st" is not allowed; expected a lowercase letter, then 1 to 128 lowercase letters, digits, "/" or "-"',
      },
      { title: 'one character', doc: trigger('"tags": [{ "key": "team", «"value": "a"» }]') },
      { title: 'upper case', doc: trigger('"tags": [{ "key": "team", «"value": "Edge"» }]') },
      { title: 'markup', doc: trigger('"tags": [{ "key": "owner", «"value": "<b>bold</b>"» }]') },
      { title: '130 characters', doc: trigger(`"tags": [{ "key": "team", «"value": "${'v'.repeat(130)}"» }]`) },
    ],
    good: [
      { title: '2 characters', doc: trigger('"tags": [{ "key": "team", "value": "ab" }]') },
      { title: '129 characters', doc: trigger(`"tags": [{ "key": "team", "value": "${'v'.repeat(129)}" }]`) },
      { title: 'digits, slash and dash', doc: trigger('"tags": [{ "key": "team", "value": "edge/eu-1" }]') },
    ],
  },
  'trigger/threshold': {
    bad: [
      { title: 'missing', doc: `«${trigger('-threshold')}»`, says: 'threshold is missing' },
      { title: 'a number', doc: trigger('«"threshold": 5»') },
    ],
    good: [{ title: 'op and value', doc: trigger('"threshold": { "op": "<", "value": 0.5 }') }],
  },
  'trigger/threshold-op': {
    bad: [
      { title: '=', doc: trigger('"threshold": { «"op": "="», "value": 10 }'), says: 'expected one of >, >=, <, <=' },
    ],
    good: [{ title: '<=', doc: trigger('"threshold": { "op": "<=", "value": 10 }') }],
  },
  'trigger/threshold-value': {
    bad: [{ title: 'a string', doc: trigger('"threshold": { "op": ">", «"value": "10"» }') }],
    good: [{ title: 'a negative number', doc: trigger('"threshold": { "op": ">", "value": -3 }') }],
  },
  'trigger/exceeded-limit': {
    bad: [
      { title: '0', doc: trigger('"threshold": { "op": ">", "value": 10, «"exceeded_limit": 0» }') },
      {
        title: '6',
        doc: trigger('"threshold": { "op": ">", "value": 10, «"exceeded_limit": 6» }'),
        says: 'exceeded_limit is 6',
      },
      { title: '2.5', doc: trigger('"threshold": { "op": ">", "value": 10, «"exceeded_limit": 2.5» }') },
    ],
    good: [
      { title: '1', doc: trigger('"threshold": { "op": ">", "value": 10, "exceeded_limit": 1 }') },
      { title: '5', doc: trigger('"threshold": { "op": ">", "value": 10, "exceeded_limit": 5 }') },
    ],
  },
  'trigger/frequency': {
    bad: [
      {
        title: '90 rounds to 120',
        doc: trigger('«"frequency": 90»', q(`${COUNT}, "time_range": 120`)),
        says: 'frequency 90 is not a multiple of 60',
        fixed: trigger('"frequency": 120', q(`${COUNT}, "time_range": 120`)),
      },
      {
        title: '30 rounds up to 60',
        doc: trigger('«"frequency": 30»'),
        says: 'frequency is 30',
        fixed: trigger('"frequency": 60'),
      },
      { title: '0 rounds up to 60', doc: trigger('«"frequency": 0»'), fixed: trigger('"frequency": 60') },
      {
        title: '86460 rounds down to 86400',
        doc: trigger('«"frequency": 86460»'),
        fixed: trigger('"frequency": 86400'),
      },
      { title: '89 rounds down to 60', doc: trigger('«"frequency": 89»'), fixed: trigger('"frequency": 60') },
      {
        title: '900.5 rounds to 900',
        doc: trigger('«"frequency": 900.5»'),
        says: 'frequency 900.5 is not a whole number',
        fixed: trigger('"frequency": 900'),
      },
      { title: 'a string has no fix', doc: trigger('«"frequency": "900"»') },
    ],
    good: [
      { title: '60', doc: trigger('"frequency": 60', q(`${COUNT}, "time_range": 240`)) },
      { title: '86400', doc: trigger('"frequency": 86400', q(`${COUNT}, "time_range": 86400`)) },
      { title: 'absent (900)', doc: trigger('-frequency') },
    ],
  },
  'trigger/alert-type': {
    bad: [{ title: 'always', doc: trigger('«"alert_type": "always"»'), says: 'expected one of on_change, on_true' }],
    good: [{ title: 'on_true', doc: trigger('"alert_type": "on_true"') }],
  },
  'trigger/disabled': {
    bad: [{ title: 'a string', doc: trigger('«"disabled": "yes"»') }],
    good: [{ title: 'true', doc: trigger('"disabled": true') }],
  },
  'trigger/recipient': {
    bad: [
      {
        title: 'neither id nor type and target',
        doc: trigger('"recipients": [«{}»]'),
        says: 'a recipient needs an id',
      },
      {
        title: 'a string',
        doc: trigger('"recipients": [«"ops@example.com"»]'),
        says: 'recipients[0] is a string ("ops@example.com"); expected an object',
      },
      {
        title: 'details that are no object',
        doc: trigger('"recipients": [{ "id": "r1", «"details": "critical"» }]'),
        says: 'recipients[0].details is a string ("critical"); expected an object',
      },
      {
        title: 'an empty target without an id',
        doc: trigger('"recipients": [{ "type": "email", «"target": ""» }]'),
        says: 'recipient target must not be empty',
      },
    ],
    good: [
      { title: 'by id', doc: trigger('"recipients": [{ "id": "r1" }]') },
      // As the service answers a paging recipient named by id, and pull wrote it before it left the empty target out.
      {
        title: 'by id, beside an empty target',
        doc: trigger('"recipients": [{ "id": "r1", "type": "pagerduty", "target": "" }]'),
      },
    ],
  },
  'trigger/recipient-type': {
    bad: [
      {
        title: 'a type the service does not have',
        doc: trigger('"recipients": [{ «"type": "sms"», "target": "+15550100" }]'),
        says: 'recipient type "sms" is not allowed; expected one of email, slack, pagerduty, webhook, msteams, msteams_workflow, marker',
      },
      { title: 'beside an id, in capitals', doc: trigger('"recipients": [{ "id": "r1", «"type": "Email"» }]') },
      { title: 'empty', doc: trigger('"recipients": [{ "id": "r1", «"type": ""» }]') },
    ],
    good: [
      {
        title: 'every type, marker included, beside the ids (as a pulled trigger holds them)',
        doc: trigger(
          `"recipients": [${['email', 'slack', 'pagerduty', 'webhook', 'msteams', 'msteams_workflow', 'marker'].map((t, i) => `{ "id": "r${i}", "type": "${t}", "target": "t${i}" }`).join(', ')}]`,
        ),
      },
      { title: 'no type: by id', doc: trigger('"recipients": [{ "id": "r1" }]') },
    ],
  },
  'trigger/pagerduty-severity': {
    bad: [
      {
        title: 'a severity the service does not have',
        doc: trigger('"recipients": [{ "id": "r1", "details": { «"pagerduty_severity": "high"» } }]'),
        says: 'pagerduty_severity "high" is not allowed; expected one of critical, error, warning, info',
      },
      {
        title: 'in capitals',
        doc: trigger('"recipients": [{ "id": "r1", "details": { «"pagerduty_severity": "Critical"» } }]'),
      },
      {
        title: 'a number',
        doc: trigger('"recipients": [{ "id": "r1", "details": { «"pagerduty_severity": 1» } }]'),
        says: 'pagerduty_severity 1 is not allowed',
      },
    ],
    good: [
      {
        title: 'each severity',
        doc: trigger(
          `"recipients": [${['critical', 'error', 'warning', 'info'].map((v, i) => `{ "id": "r${i}", "details": { "pagerduty_severity": "${v}" } }`).join(', ')}]`,
        ),
      },
      { title: 'none (critical)', doc: trigger('"recipients": [{ "id": "r1", "details": {} }]') },
    ],
  },
  'trigger/webhook-variable': {
    bad: [
      {
        title: 'a name starting with a capital',
        doc: trigger(
          '"recipients": [{ "id": "r1", "details": { "variables": [{ «"name": "Team"», "value": "payments" }] } }]',
        ),
        says: 'variable name "Team" is not allowed; expected a lowercase letter a-z, then only letters a-z, A-Z and digits',
      },
      {
        title: 'a name with an underscore, the second variable',
        doc: trigger(
          '"recipients": [{ "id": "r1", "details": { "variables": [{ "name": "team", "value": "a" }, { «"name": "run_book"», "value": "b" }] } }]',
        ),
      },
      {
        title: 'an empty name',
        doc: trigger('"recipients": [{ "id": "r1", "details": { "variables": [{ «"name": ""», "value": "a" }] } }]'),
      },
      {
        title: 'a value of 257 characters',
        doc: trigger(
          `"recipients": [{ "id": "r1", "details": { "variables": [{ "name": "team", «"value": "${'v'.repeat(257)}"» }] } }]`,
        ),
        says: 'variable value has 257 characters; expected a string of at most 256 characters',
      },
    ],
    good: [
      {
        title: 'one letter; letters and digits after a lowercase one; a value of 256 characters',
        doc: trigger(
          `"recipients": [{ "id": "r1", "details": { "variables": [{ "name": "a", "value": "" }, { "name": "runBook2", "value": "${'v'.repeat(256)}" }] } }]`,
        ),
      },
      {
        title: 'a value of 256 emoji (512 UTF-16 units)',
        doc: trigger(
          `"recipients": [{ "id": "r1", "details": { "variables": [{ "name": "icon", "value": "${'\u{1F6A8}'.repeat(256)}" }] } }]`,
        ),
      },
    ],
  },
  'trigger/recipient-deprecated': {
    bad: [
      {
        title: 'type and target',
        doc: trigger('"recipients": [«{ "type": "email", "target": "ops@example.com" }»]'),
        says: 'deprecated',
      },
      {
        title: 'type and target of the one recipient the service lists with them: named by its id',
        doc: trigger('"recipients": [«{ "type": "email", "target": "ops@example.com" }»]'),
        options: RECIPIENTS,
        fixed: trigger('"recipients": [{ "id": "rcp_email_ops" }]'),
      },
      {
        title: 'target first, details kept',
        doc: trigger(
          '"recipients": [«{ "target": "ops@example.com", "details": { "variables": [] }, "type": "email" }»]',
        ),
        options: RECIPIENTS,
        fixed: trigger('"recipients": [{ "details": { "variables": [] }, "id": "rcp_email_ops" }]'),
      },
      {
        title: 'two listed recipients with that type and target: no fix, the message names both',
        doc: trigger('"recipients": [«{ "type": "email", "target": "ops@example.com" }»]'),
        options: TWINS,
        says: '2 recipients the service lists have type "email" and target "ops@example.com" (rcp_ops_1, rcp_ops_2): name it by the id of the one meant',
      },
    ],
    good: [
      {
        title: 'by id with details',
        doc: trigger('"recipients": [{ "id": "r1", "details": { "pagerduty_severity": "critical" } }]'),
      },
    ],
  },
  'trigger/unknown-recipient': {
    bad: [
      {
        title: 'a misspelt id, with the nearest id and its name as the fix',
        doc: trigger('"recipients": [{ «"id": "rcp_pd_primray"» }]'),
        options: RECIPIENTS,
        says: '"rcp_pd_primray" is not the id of a recipient the service lists; did you mean "rcp_pd_primary" (On-call (PagerDuty))?',
        fixed: trigger('"recipients": [{ "id": "rcp_pd_primary" }]'),
      },
      {
        title: 'an address written where the id goes is told the id',
        doc: trigger('"recipients": [{ "id": "rcp_pd_primary" }, { «"id": "OPS@example.com"» }]'),
        options: RECIPIENTS,
        fixed: trigger('"recipients": [{ "id": "rcp_pd_primary" }, { "id": "rcp_email_ops" }]'),
      },
      {
        title: 'an id near none (no fix)',
        doc: trigger('"recipients": [{ «"id": "zzzzzzzzzzzz"» }]'),
        options: RECIPIENTS,
        says: '"zzzzzzzzzzzz" is not the id of any of the 2 recipients the service lists',
      },
    ],
    good: [
      {
        title: 'listed ids',
        doc: trigger('"recipients": [{ "id": "rcp_email_ops" }, { "id": "rcp_pd_primary" }]'),
        options: RECIPIENTS,
      },
      {
        title: "without the account's list nothing is checked",
        doc: trigger('"recipients": [{ "id": "rcp_anything" }]'),
      },
    ],
  },
  'trigger/evaluation-schedule-type': {
    bad: [
      {
        title: 'hourly',
        doc: trigger('«"evaluation_schedule_type": "hourly"»'),
        says: 'expected one of frequency, window',
      },
    ],
    good: [{ title: 'frequency', doc: trigger('"evaluation_schedule_type": "frequency"') }],
  },
  'trigger/evaluation-schedule': {
    bad: [
      {
        title: 'window without a schedule: the trigger',
        doc: `«${trigger('"evaluation_schedule_type": "window"')}»`,
        says: 'evaluation_schedule is missing',
      },
      {
        title: 'a schedule without a window',
        doc: trigger('"evaluation_schedule_type": "window"', '"evaluation_schedule": «{}»'),
        says: 'window is missing',
      },
    ],
    good: [
      {
        title: 'window with a schedule',
        doc: trigger('"evaluation_schedule_type": "window"', `"evaluation_schedule": { ${WINDOW} }`),
      },
    ],
  },
  'trigger/evaluation-schedule-unused': {
    bad: [
      {
        title: 'a window without a schedule type (frequency, the default)',
        doc: trigger(`«"evaluation_schedule": { ${WINDOW} }»`),
        says: 'evaluation_schedule has no effect: evaluation_schedule_type is absent (frequency, the default)',
      },
      {
        title: 'a window with schedule type frequency',
        doc: trigger('"evaluation_schedule_type": "frequency"', `«"evaluation_schedule": { ${WINDOW} }»`),
        says: 'evaluation_schedule has no effect: evaluation_schedule_type is frequency',
      },
    ],
    good: [
      { title: 'a window with schedule type window', doc: trigger(...windowed(`{ ${WINDOW} }`)) },
      {
        title: 'a null schedule with schedule type frequency',
        doc: trigger('"evaluation_schedule_type": "frequency"', '"evaluation_schedule": null'),
      },
    ],
  },
  'trigger/window-days': {
    bad: [
      {
        title: 'no day',
        doc: trigger(
          '"evaluation_schedule_type": "window"',
          `"evaluation_schedule": { "window": { «"days_of_week": []», "start_time": "09:00", "end_time": "17:00" } }`,
        ),
      },
      {
        title: 'capitalised',
        doc: trigger(
          '"evaluation_schedule_type": "window"',
          `"evaluation_schedule": { "window": { "days_of_week": [«"Monday"»], "start_time": "09:00", "end_time": "17:00" } }`,
        ),
      },
      {
        title: 'a day twice',
        doc: trigger(
          '"evaluation_schedule_type": "window"',
          `"evaluation_schedule": { "window": { «"days_of_week": ["monday", "monday"]», "start_time": "09:00", "end_time": "17:00" } }`,
        ),
        says: 'repeats a day',
      },
    ],
    good: [
      {
        title: 'all seven',
        doc: trigger(
          '"evaluation_schedule_type": "window"',
          `"evaluation_schedule": { "window": { "days_of_week": ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"], "start_time": "00:00", "end_time": "23:59" } }`,
        ),
      },
    ],
  },
  'trigger/window-time': {
    bad: [
      {
        title: 'one-digit hour',
        doc: trigger(
          '"evaluation_schedule_type": "window"',
          `"evaluation_schedule": { "window": { "days_of_week": ["monday"], «"start_time": "9:00"», "end_time": "17:00" } }`,
        ),
      },
      {
        title: '24:00',
        doc: trigger(
          '"evaluation_schedule_type": "window"',
          `"evaluation_schedule": { "window": { "days_of_week": ["monday"], "start_time": "09:00", «"end_time": "24:00"» } }`,
        ),
      },
    ],
    good: [
      {
        title: 'end before start (next day)',
        doc: trigger(
          '"evaluation_schedule_type": "window"',
          `"evaluation_schedule": { "window": { "days_of_week": ["friday"], "start_time": "22:00", "end_time": "06:00" } }`,
        ),
      },
    ],
  },
  'trigger/baseline-details': {
    bad: [
      {
        title: 'unknown type',
        doc: trigger(
          '"threshold": { "op": ">=", "value": 10 }',
          '"baseline_details": { «"type": "ratio"», "offset_minutes": 60 }',
        ),
      },
      {
        title: 'offset 30',
        doc: trigger(
          '"threshold": { "op": ">=", "value": 10 }',
          '"baseline_details": { "type": "value", «"offset_minutes": 30» }',
        ),
        says: 'expected one of 60, 1440, 10080, 40320',
      },
      {
        title: 'a type without offset_minutes: the baseline',
        doc: trigger('"threshold": { "op": ">=", "value": 10 }', '"baseline_details": «{ "type": "value" }»'),
        says: 'offset_minutes is missing; expected one of 60, 1440, 10080, 40320',
      },
    ],
    good: [
      {
        title: 'percentage, a week',
        doc: trigger(
          '"threshold": { "op": ">=", "value": 10 }',
          '"baseline_details": { "type": "percentage", "offset_minutes": 10080 }',
        ),
      },
      { title: 'null', doc: trigger('"baseline_details": null') },
      { title: '{}, which clears a baseline', doc: trigger('"baseline_details": {}') },
    ],
  },
  'trigger/baseline-threshold': {
    bad: [
      {
        title: '> 10',
        doc: trigger(
          '«"threshold": { "op": ">", "value": 10 }»',
          '"baseline_details": { "type": "value", "offset_minutes": 60 }',
        ),
      },
      {
        title: '>= -1',
        doc: trigger(
          '«"threshold": { "op": ">=", "value": -1 }»',
          '"baseline_details": { "type": "value", "offset_minutes": 60 }',
        ),
      },
      {
        title: '<= 1',
        doc: trigger(
          '«"threshold": { "op": "<=", "value": 1 }»',
          '"baseline_details": { "type": "value", "offset_minutes": 60 }',
        ),
      },
    ],
    good: [
      {
        title: '>= 0',
        doc: trigger(
          '"threshold": { "op": ">=", "value": 0 }',
          '"baseline_details": { "type": "value", "offset_minutes": 60 }',
        ),
      },
      {
        title: '<= -5',
        doc: trigger(
          '"threshold": { "op": "<=", "value": -5 }',
          '"baseline_details": { "type": "value", "offset_minutes": 40320 }',
        ),
      },
      {
        title: 'any threshold with {}, which clears the baseline',
        doc: trigger('"threshold": { "op": ">", "value": 10 }', '"baseline_details": {}'),
      },
    ],
  },
  'trigger/baseline-frequency': {
    bad: [
      {
        title: 'every 10 minutes',
        doc: trigger(
          '«"frequency": 600»',
          '"threshold": { "op": ">=", "value": 10 }',
          '"baseline_details": { "type": "percentage", "offset_minutes": 1440 }',
        ),
        says: 'frequency 600 is below 900, the least frequency of a baseline trigger; raise it to 900 or more, or remove baseline_details',
      },
      {
        title: 'one step under 900',
        doc: trigger(
          '«"frequency": 840»',
          '"threshold": { "op": "<=", "value": 0 }',
          '"baseline_details": { "type": "value", "offset_minutes": 60 }',
        ),
      },
    ],
    good: [
      {
        title: 'every 900 seconds',
        doc: trigger(
          '"frequency": 900',
          '"threshold": { "op": ">=", "value": 10 }',
          '"baseline_details": { "type": "value", "offset_minutes": 60 }',
        ),
      },
      {
        title: 'no frequency (900)',
        doc: trigger(
          '-frequency',
          '"threshold": { "op": ">=", "value": 10 }',
          '"baseline_details": { "type": "value", "offset_minutes": 60 }',
        ),
      },
      {
        title: 'every 5 minutes with {}, which clears the baseline',
        doc: trigger('"frequency": 300', q(`${COUNT}, "time_range": 1200`), '"baseline_details": {}'),
      },
      {
        title: 'every 5 minutes with a null baseline',
        doc: trigger('"frequency": 300', q(`${COUNT}, "time_range": 1200`), '"baseline_details": null'),
      },
    ],
  },
  'trigger/query-source': {
    bad: [
      { title: 'neither: the trigger', doc: `«${trigger('-query')}»`, says: 'neither query nor query_id' },
      { title: 'both: query_id', doc: trigger('«"query_id": "q1"»'), says: 'both query and query_id' },
      { title: 'query is a string', doc: trigger('«"query": "COUNT"»') },
    ],
    good: [
      { title: 'query_id only', doc: trigger('-query', '"query_id": "q1"') },
      { title: 'query with a null query_id', doc: trigger('"query_id": null') },
    ],
  },
  'trigger/unknown-member': {
    bad: [
      {
        title: 'a typo',
        doc: trigger('-frequency', '«"frequncy": 900»'),
        says: '"frequncy" is not a member of the trigger; known members: id, dataset_slug, name',
      },
      { title: 'in the threshold', doc: trigger('"threshold": { "op": ">", "value": 10, «"unit": "ms"» }') },
      {
        title: 'in a recipient',
        doc: trigger('"recipients": [{ "id": "r1", «"channel": "ops"» }]'),
        says: '"channel" is not a member of a recipient; known members: id, type, target, details',
      },
    ],
    good: [
      {
        title: 'every known member',
        doc: trigger('"dataset_slug": "api"', '"description": "d"', '"disabled": false', '"alert_type": "on_change"'),
      },
    ],
  },
  'trigger/read-only-member': {
    bad: [
      {
        title: 'updated_at, last',
        doc: trigger('«"updated_at": "2026-01-01T00:00:00Z"»'),
        says: 'updated_at is read-only',
        fixed: trigger(),
      },
      {
        title: 'triggered, in the middle',
        doc: trigger('«"triggered": false»', '"disabled": false'),
        fixed: trigger('"disabled": false'),
      },
      {
        title: 'created_at, first',
        doc: trigger(
          '-name',
          '-frequency',
          '-threshold',
          '-query',
          '«"created_at": "2026-01-01T00:00:00Z"»',
          '"name": "n"',
          '"threshold": { "op": ">", "value": 1 }',
          '"query_id": "q"',
        ),
        fixed: trigger(
          '-name',
          '-frequency',
          '-threshold',
          '-query',
          '"name": "n"',
          '"threshold": { "op": ">", "value": 1 }',
          '"query_id": "q"',
        ),
      },
    ],
    good: [
      { title: 'none', doc: trigger() },
      { title: 'the id that links a pulled file to its trigger', doc: trigger('"id": "t1"') },
      {
        title: 'read-only members of a trigger as the service lists it',
        doc: trigger('"id": "t1"', '"triggered": true', '"created_at": "2026-01-01T00:00:00Z"'),
        options: { form: 'listed' },
      },
    ],
  },
  'trigger/id': {
    bad: [
      {
        title: 'a number',
        doc: trigger('«"id": 7»'),
        says: 'id is the number 7; expected the id of the trigger on the service',
      },
      { title: 'empty', doc: trigger('«"id": ""»') },
    ],
    good: [
      { title: 'a string', doc: trigger('"id": "trig_1"') },
      { title: 'null', doc: trigger('"id": null') },
    ],
  },
  'trigger/body-size': {
    bad: [
      {
        title: 'a filter listing 20,000 routes: the trigger',
        doc: `«${trigger(q(`${COUNT}, "filters": [{ "column": "http.route", "op": "in", "value": [${routes(20_000)}] }], "time_range": 1800`))}»`,
        says: 'the trigger is about 189,080 bytes as a write sends it; the service refuses a body over 100,000 bytes',
      },
      { title: 'one byte over', doc: `«${sized(100_001)}»`, says: 'the trigger is about 100,001 bytes' },
    ],
    good: [
      { title: '100,000 bytes', doc: sized(100_000) },
      {
        title: '100,000 bytes with id and dataset_slug, which go in the path',
        doc: sized(100_000, '"id": "t1"', '"dataset_slug": "api"'),
      },
    ],
  },
  'query/calculations': {
    bad: [
      {
        title: 'missing: the query',
        doc: trigger('"query": «{ "time_range": 1800 }»'),
        says: 'calculations is missing',
      },
      {
        title: 'empty',
        doc: trigger(q('«"calculations": []», "time_range": 1800')),
        says: 'at least one aggregate calculation',
      },
    ],
    good: [{ title: 'one', doc: trigger() }],
  },
  'query/calculation-op-refused': {
    bad: [
      {
        title: 'HEATMAP',
        doc: trigger(calc('{ «"op": "HEATMAP"», "column": "duration_ms" }')),
        says: 'HEATMAP is not allowed in a trigger',
      },
      { title: 'CONCURRENCY', doc: trigger(calc('{ «"op": "CONCURRENCY"» }')) },
    ],
    good: [{ title: 'P99', doc: trigger(calc('{ "op": "P99", "column": "duration_ms" }')) }],
  },
  'query/calculation-op-unknown': {
    bad: [
      {
        title: 'MEDIAN',
        doc: trigger(calc('{ «"op": "MEDIAN"», "column": "duration_ms" }')),
        says: 'calculation op "MEDIAN" is not allowed; expected one of COUNT, SUM',
      },
    ],
    good: [{ title: 'RATE_MAX', doc: trigger(calc('{ "op": "RATE_MAX", "column": "bytes" }')) }],
  },
  'query/calculation-op-metrics-only': {
    bad: [
      {
        title: 'COUNT_DATAPOINTS on a standard dataset',
        doc: trigger('"dataset_slug": "api"', calc('{ «"op": "COUNT_DATAPOINTS"» }')),
        options: { metricsDatasetHint: CLI_METRICS_DATASET_HINT },
        says: 'dataset api is standard; if api is a metrics dataset, name it with --metrics-dataset api (editor setting obs.metricsDatasets)',
      },
      {
        title: 'HISTOGRAM_COUNT without dataset_slug',
        doc: trigger(calc('{ «"op": "HISTOGRAM_COUNT"», "column": "latency" }')),
        options: { ...METRICS, metricsDatasetHint: CLI_METRICS_DATASET_HINT },
        says: 'the dataset (no dataset_slug) is standard; if the dataset is a metrics dataset, give dataset_slug and name it with --metrics-dataset',
      },
    ],
    good: [
      {
        title: 'COUNT_DATAPOINTS on a metrics dataset',
        doc: trigger('"dataset_slug": "otel-metrics"', calc('{ "op": "COUNT_DATAPOINTS" }')),
        options: METRICS,
      },
      {
        title: 'HISTOGRAM_COUNT on a metrics dataset',
        doc: trigger('"dataset_slug": "otel-metrics"', calc('{ "op": "HISTOGRAM_COUNT", "column": "latency" }')),
        options: METRICS,
      },
    ],
  },
  'query/calculation-column': {
    bad: [
      {
        title: 'AVG without a column: the calculation',
        doc: trigger(calc('«{ "op": "AVG" }»')),
        says: 'AVG needs a column',
      },
      {
        title: 'COUNT with a column',
        doc: trigger(calc('{ "op": "COUNT", «"column": "duration_ms"» }')),
        says: 'COUNT takes no column',
      },
      {
        title: 'CONCURRENCY with a column',
        doc: trigger(calc('{ "op": "CONCURRENCY", «"column": "duration_ms"» }')),
        says: 'CONCURRENCY takes no column',
      },
    ],
    good: [
      { title: 'AVG with a column', doc: trigger(calc('{ "op": "AVG", "column": "duration_ms" }')) },
      {
        title: 'COUNT_DATAPOINTS without a column (a total)',
        doc: trigger('"dataset_slug": "otel-metrics"', calc('{ "op": "COUNT_DATAPOINTS" }')),
        options: METRICS,
      },
      {
        title: 'COUNT_DATAPOINTS with a column (one metric)',
        doc: trigger('"dataset_slug": "otel-metrics"', calc('{ "op": "COUNT_DATAPOINTS", "column": "cpu" }')),
        options: METRICS,
      },
    ],
  },
  'query/filters': {
    bad: [
      {
        title: 'unknown op',
        doc: trigger(
          q(`${COUNT}, "filters": [{ "column": "status", «"op": "like"», "value": "5" }], "time_range": 1800`),
        ),
      },
      { title: 'XOR', doc: trigger(q(`${COUNT}, «"filter_combination": "XOR"», "time_range": 1800`)) },
      {
        title: 'in a calculation',
        doc: trigger(calc('{ "op": "COUNT", "filters": [«{ "op": "exists" }»] }')),
        says: 'filter column is missing',
      },
    ],
    good: [
      {
        title: 'AND of two',
        doc: trigger(
          q(
            `${COUNT}, "filters": [{ "column": "status", "op": ">=", "value": 500 }, { "column": "route", "op": "in", "value": ["/a", "/b"] }], "filter_combination": "AND", "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/breakdowns': {
    bad: [{ title: 'a number', doc: trigger(q(`${COUNT}, "breakdowns": [«1»], "time_range": 1800`)) }],
    good: [{ title: 'a column', doc: trigger(q(`${COUNT}, "breakdowns": ["service"], "time_range": 1800`)) }],
  },
  'query/having': {
    bad: [
      {
        title: 'string value',
        doc: trigger(
          q(`${COUNT}, "havings": [{ "calculate_op": "COUNT", "op": ">", «"value": "5"» }], "time_range": 1800`),
        ),
      },
      {
        title: 'neither calculate_op nor column: the having',
        doc: trigger(q(`${COUNT}, "havings": [«{ "op": ">", "value": 5 }»], "time_range": 1800`)),
        says: 'the having has neither calculate_op nor a column',
      },
    ],
    good: [
      {
        title: 'on COUNT',
        doc: trigger(
          q(`${COUNT}, "havings": [{ "calculate_op": "COUNT", "op": ">", "value": 5 }], "time_range": 1800`),
        ),
      },
      {
        title: 'naming a formula, without calculate_op',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "ratio", "expression": "DIV($a0, $a1)" }], "havings": [{ "column": "ratio", "op": ">", "value": 0.5 }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/havings-max': {
    bad: [
      {
        title: 'two',
        doc: trigger(
          q(
            `${COUNT}, «"havings": [{ "calculate_op": "COUNT", "op": ">", "value": 5 }, { "calculate_op": "COUNT", "op": "<", "value": 50 }]», "time_range": 1800`,
          ),
        ),
        says: 'havings holds 2 items; expected at most 1 HAVING clause',
      },
    ],
    good: [
      {
        title: 'one',
        doc: trigger(
          q(`${COUNT}, "havings": [{ "calculate_op": "COUNT", "op": ">", "value": 5 }], "time_range": 1800`),
        ),
      },
    ],
  },
  'query/having-calculation': {
    bad: [
      {
        title: 'no P99(duration_ms) calculation',
        doc: trigger(
          q(
            `${COUNT}, "havings": [«{ "calculate_op": "P99", "column": "duration_ms", "op": ">", "value": 5 }»], "time_range": 1800`,
          ),
        ),
        says: 'the having on P99(duration_ms) matches no calculation',
      },
      {
        title: 'same op, other column',
        doc: trigger(
          q(
            `"calculations": [{ "op": "COUNT" }, { "op": "P99", "column": "db_ms" }], "havings": [«{ "calculate_op": "P99", "column": "duration_ms", "op": ">", "value": 5 }»], "time_range": 1800`,
          ),
        ),
      },
      {
        title: 'without calculate_op, a column that names no calculation or formula',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "ratio", "expression": "DIV($a0, $a1)" }], "havings": [«{ "column": "nope", "op": ">", "value": 5 }»], "time_range": 1800`,
          ),
        ),
        says: 'the having on "nope" names no calculation or formula; without calculate_op its column is the name of a calculation or formula; calculation names: a0, a1; formula names: ratio',
      },
    ],
    good: [
      {
        title: 'matches P99(duration_ms)',
        doc: trigger(
          q(
            `"calculations": [{ "op": "COUNT" }, { "op": "P99", "column": "duration_ms" }], "havings": [{ "calculate_op": "P99", "column": "duration_ms", "op": ">", "value": 5 }], "time_range": 1800`,
          ),
        ),
      },
      {
        title: 'names a calculation, without calculate_op',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "ratio", "expression": "DIV($a0, $a1)" }], "havings": [{ "column": "a1", "op": ">", "value": 5 }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/formula': {
    bad: [
      {
        title: 'no expression: the formula',
        doc: trigger(q(`"calculations": ${calcs(2)}, "formulas": [«{ "name": "ratio" }»], "time_range": 1800`)),
        says: 'formula expression is missing',
      },
    ],
    good: [
      {
        title: 'name and expression',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "ratio", "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/formulas-max': {
    bad: [
      {
        title: 'two',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, «"formulas": [{ "name": "r", "expression": "DIV($a0, $a1)" }, { "name": "s", "expression": "SUM($a0, $a1)" }]», "time_range": 1800`,
          ),
        ),
        says: 'expected at most 1 formula',
      },
    ],
    good: [
      {
        title: 'one',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "r", "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/formula-aggregates-max': {
    bad: [
      {
        title: '101 aggregates',
        doc: trigger(
          q(`«"calculations": ${calcs(101)}», "formulas": [{ "name": "r", "expression": "$a0" }], "time_range": 1800`),
        ),
        says: 'calculations hold 101 aggregates; with a formula at most 100',
      },
    ],
    good: [
      {
        title: '100 aggregates',
        doc: trigger(
          q(`"calculations": ${calcs(100)}, "formulas": [{ "name": "r", "expression": "$a0" }], "time_range": 1800`),
        ),
      },
    ],
  },
  'query/non-having-aggregates': {
    bad: [
      {
        title: 'COUNT and AVG: the second',
        doc: trigger(calc('{ "op": "COUNT" }, «{ "op": "AVG", "column": "duration_ms" }»')),
        says: 'AVG(duration_ms) is one aggregate too many',
      },
      {
        title: 'the having uses COUNT, P99 and AVG remain',
        doc: trigger(
          q(
            `"calculations": [{ "op": "COUNT" }, { "op": "P99", "column": "d" }, «{ "op": "AVG", "column": "d" }»], "havings": [{ "calculate_op": "COUNT", "op": ">", "value": 5 }], "time_range": 1800`,
          ),
        ),
      },
      {
        title: 'the having uses one of two identical P99(d): the other and COUNT remain',
        doc: trigger(
          q(
            `"calculations": [{ "op": "P99", "column": "d" }, { "op": "P99", "column": "d" }, «{ "op": "COUNT" }»], "havings": [{ "calculate_op": "P99", "column": "d", "op": ">", "value": 5 }], "time_range": 1800`,
          ),
        ),
        says: 'the query has 2 aggregates not used by a having (P99(d), COUNT)',
      },
      {
        title: 'COUNT and P99(duration_ms) without a having',
        doc: trigger(
          q(`"calculations": [{ "op": "COUNT" }, «{ "op": "P99", "column": "duration_ms" }»], "time_range": 1800`),
        ),
        says: 'P99(duration_ms) is one aggregate too many: the query has 2 aggregates not used by a having (COUNT, P99(duration_ms)); without formulas at most 1 is allowed',
      },
    ],
    good: [
      {
        title: 'COUNT and P99(duration_ms) used only by the having',
        doc: trigger(
          q(
            `"calculations": [{ "op": "COUNT" }, { "op": "P99", "column": "duration_ms" }], "havings": [{ "calculate_op": "P99", "column": "duration_ms", "op": ">", "value": 500 }], "time_range": 1800`,
          ),
        ),
      },
      {
        title: 'two with a formula',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "r", "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/calculated-fields': {
    bad: [
      {
        title: 'no name',
        doc: trigger(q(`${COUNT}, "calculated_fields": [«{ "expression": "1" }»], "time_range": 1800`)),
      },
    ],
    good: [
      {
        title: 'name and expression',
        doc: trigger(
          q(
            `${COUNT}, "calculated_fields": [{ "name": "slow", "expression": "GT($duration_ms, 500)" }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/named-aggregate-filters': {
    bad: [
      {
        title: 'a named aggregate and global filters: the filters',
        doc: trigger(
          q(
            `"calculations": [{ "op": "COUNT", "name": "errors" }], «"filters": [{ "column": "error", "op": "exists" }]», "time_range": 1800`,
          ),
        ),
        says: 'global filters cannot be combined with named aggregates (errors)',
      },
    ],
    good: [
      {
        title: 'filters inside the named aggregate, with a formula',
        doc: trigger(
          q(
            `"calculations": [{ "op": "COUNT", "name": "errors", "filters": [{ "column": "error", "op": "exists" }] }, { "op": "COUNT", "name": "all" }], "formulas": [{ "name": "ratio", "expression": "DIV($errors, $all)" }], "filters": [], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/calculation-needs-formula': {
    bad: [
      {
        title: 'a named calculation without formulas: the name',
        doc: trigger(calc('{ "op": "COUNT", «"name": "total"» }')),
        says: 'the calculation is named ("total") but the query has no formula; without formulas calculations carry no name',
      },
      {
        title: 'calculation filters without formulas: the filters',
        doc: trigger(calc('{ "op": "COUNT", «"filters": [{ "column": "error", "op": "exists" }]» }')),
        says: "the calculation has its own filters but the query has no formula; without formulas, filter the whole query with the query's filters",
      },
    ],
    good: [
      {
        title: 'named calculations with a formula',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "r", "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
          ),
        ),
      },
      { title: 'empty calculation filters without formulas', doc: trigger(calc('{ "op": "COUNT", "filters": [] }')) },
    ],
  },
  'query/calculation-name-duplicate': {
    bad: [
      {
        title: 'two calculations named a: the second name',
        doc: trigger(
          q(
            `"calculations": [{ "op": "COUNT", "name": "a" }, { "op": "SUM", "column": "x", «"name": "a"» }], "formulas": [{ "name": "r", "expression": "$a" }], "time_range": 1800`,
          ),
        ),
        says: 'calculation name "a" is already used by calculation 1; each calculation name is used once',
      },
    ],
    good: [
      {
        title: 'different names',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "r", "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/formula-name': {
    bad: [
      {
        title: 'a formula named like a calculation: its name',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ «"name": "a1"», "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
          ),
        ),
        says: 'formula name "a1" is also the name of calculation 2; a formula needs a name of its own',
      },
    ],
    good: [
      {
        title: 'a name of its own',
        doc: trigger(
          q(
            `"calculations": ${calcs(2)}, "formulas": [{ "name": "ratio", "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
          ),
        ),
      },
    ],
  },
  'query/time-range': {
    bad: [
      { title: 'missing: the query', doc: trigger(`"query": «{ ${COUNT} }»`), says: 'time_range is missing' },
      { title: 'a string', doc: trigger(q(`${COUNT}, «"time_range": "1800"»`)) },
      {
        title: 'a fraction',
        doc: trigger(q(`${COUNT}, «"time_range": 1800.5»`)),
        says: 'time_range 1800.5 is not a whole number',
      },
    ],
    good: [{ title: 'seconds', doc: trigger() }],
  },
  'query/time-range-min': {
    bad: [
      {
        title: 'one under frequency 900',
        doc: trigger(q(`${COUNT}, «"time_range": 899»`)),
        says: 'time_range 899 is below frequency 900; expected 900 (the frequency) to 3600 (4 x frequency)',
        fixed: trigger(q(`${COUNT}, "time_range": 900`)),
      },
      {
        title: 'under 60 says the frequency',
        doc: trigger(q(`${COUNT}, «"time_range": 30»`)),
        says: 'below frequency 900',
        fixed: trigger(q(`${COUNT}, "time_range": 900`)),
      },
      {
        title: 'the default frequency',
        doc: trigger('-frequency', q(`${COUNT}, «"time_range": 600»`)),
        says: 'below frequency 900 (the default)',
        fixed: trigger('-frequency', q(`${COUNT}, "time_range": 900`)),
      },
      {
        title: 'one under frequency 60',
        doc: trigger('"frequency": 60', q(`${COUNT}, «"time_range": 59»`)),
        fixed: trigger('"frequency": 60', q(`${COUNT}, "time_range": 60`)),
      },
    ],
    good: [
      { title: 'equal to frequency 900', doc: trigger(q(`${COUNT}, "time_range": 900`)) },
      { title: 'equal to frequency 60', doc: trigger('"frequency": 60', q(`${COUNT}, "time_range": 60`)) },
    ],
  },
  'query/time-range-max': {
    bad: [
      {
        title: '7200 with frequency 900',
        doc: trigger(q(`${COUNT}, «"time_range": 7200»`)),
        says: 'time_range 7200 exceeds 3600 = 4 x frequency 900',
        fixed: trigger(q(`${COUNT}, "time_range": 3600`)),
      },
      {
        title: 'one over 4 x frequency',
        doc: trigger(q(`${COUNT}, «"time_range": 3601»`)),
        fixed: trigger(q(`${COUNT}, "time_range": 3600`)),
      },
      {
        title: 'one over 86400',
        doc: trigger('"frequency": 43200', q(`${COUNT}, «"time_range": 86401»`)),
        says: 'time_range 86401 exceeds the maximum 86400',
        fixed: trigger('"frequency": 43200', q(`${COUNT}, "time_range": 86400`)),
      },
      {
        title: 'one over 4 x frequency 60',
        doc: trigger('"frequency": 60', q(`${COUNT}, «"time_range": 241»`)),
        fixed: trigger('"frequency": 60', q(`${COUNT}, "time_range": 240`)),
      },
      {
        title: 'frequency invalid: the absolute maximum',
        doc: trigger('"frequency": "900"', q(`${COUNT}, «"time_range": 90000»`)),
        fixed: trigger('"frequency": "900"', q(`${COUNT}, "time_range": 86400`)),
      },
    ],
    good: [
      { title: 'equal to 4 x frequency', doc: trigger(q(`${COUNT}, "time_range": 3600`)) },
      { title: 'equal to 86400', doc: trigger('"frequency": 43200', q(`${COUNT}, "time_range": 86400`)) },
    ],
  },
  'query/refused-member': {
    bad: [
      {
        title: 'orders',
        doc: trigger(q(`${COUNT}, «"orders": [{ "op": "COUNT", "order": "descending" }]», "time_range": 1800`)),
        says: 'orders must not be set in a trigger query',
        fixed: trigger(q(`${COUNT}, "time_range": 1800`)),
      },
      {
        title: 'limit, last',
        doc: trigger(q(`${COUNT}, "time_range": 1800, «"limit": 100»`)),
        fixed: trigger(q(`${COUNT}, "time_range": 1800`)),
      },
      {
        title: 'start_time',
        doc: trigger(q(`${COUNT}, «"start_time": 1700000000», "time_range": 1800`)),
        fixed: trigger(q(`${COUNT}, "time_range": 1800`)),
      },
      {
        title: 'end_time',
        doc: trigger(q(`${COUNT}, «"end_time": 1700000000», "time_range": 1800`)),
        fixed: trigger(q(`${COUNT}, "time_range": 1800`)),
      },
      {
        title: 'usage_mode',
        doc: trigger(q(`${COUNT}, «"usage_mode": true», "time_range": 1800`)),
        fixed: trigger(q(`${COUNT}, "time_range": 1800`)),
      },
    ],
    good: [{ title: 'none', doc: trigger() }],
  },
  'query/granularity-standard': {
    bad: [
      {
        title: 'on a standard dataset',
        doc: trigger('"dataset_slug": "api"', q(`${COUNT}, «"granularity": 60», "time_range": 1800`)),
        says: 'granularity is supported only on metrics datasets and dataset api is standard',
        fixed: trigger('"dataset_slug": "api"', q(`${COUNT}, "time_range": 1800`)),
      },
    ],
    good: [
      {
        title: 'on a metrics dataset',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "granularity": 60, "time_range": 1800`)),
        options: METRICS,
      },
    ],
  },
  'query/granularity-range': {
    bad: [
      {
        title: 'under time_range/1000',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 3600, «"granularity": 3»`)),
        options: METRICS,
        says: 'granularity 3 lies outside 3.6 = time_range 3600 / 1000 to 360',
      },
      {
        title: 'over time_range',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 3600, «"granularity": 3601»`)),
        options: METRICS,
        says: 'granularity 3601 lies outside 3.6 = time_range 3600 / 1000 to 3600 = time_range',
      },
      {
        title: 'zero',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 3600, «"granularity": 0»`)),
        options: METRICS,
      },
    ],
    good: [
      {
        title: 'smallest',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 3600, "granularity": 4`)),
        options: METRICS,
      },
      {
        title: 'time_range/10',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 3600, "granularity": 360`)),
        options: METRICS,
      },
    ],
  },
  'query/granularity-coarse': {
    bad: [
      {
        title: 'one over time_range/10',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 3600, «"granularity": 361»`)),
        options: METRICS,
        says: 'granularity 361 is above 360 = time_range 3600 / 10',
      },
      {
        title: 'time_range itself',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 3600, «"granularity": 3600»`)),
        options: METRICS,
      },
    ],
    good: [
      {
        title: 'time_range/10',
        doc: trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 1800, "granularity": 180`)),
        options: METRICS,
      },
    ],
  },
  'query/unknown-column': {
    bad: [
      {
        title: 'a filter on a column the dataset lacks, with the nearest name as the fix',
        doc: trigger(
          '"dataset_slug": "api"',
          q(`${COUNT}, "filters": [{ «"column": "http.status_code"», "op": ">=", "value": 500 }], "time_range": 1800`),
        ),
        options: COLUMNS,
        says: '"http.status_code" is not a column of api as the service lists them; did you mean "status_code"?',
        fixed: trigger(
          '"dataset_slug": "api"',
          q(`${COUNT}, "filters": [{ "column": "status_code", "op": ">=", "value": 500 }], "time_range": 1800`),
        ),
      },
      {
        title: 'a calculation column',
        doc: trigger('"dataset_slug": "api"', calc('{ "op": "P99", «"column": "duraton_ms"» }')),
        options: COLUMNS,
        fixed: trigger('"dataset_slug": "api"', calc('{ "op": "P99", "column": "duration_ms" }')),
      },
      {
        title: 'a breakdown with no name near it (no fix)',
        doc: trigger('"dataset_slug": "api"', q(`${COUNT}, "breakdowns": [«"customer.tier"»], "time_range": 1800`)),
        options: COLUMNS,
      },
      {
        title: "a having column, environment-wide against every dataset's columns",
        doc: trigger(
          '"dataset_slug": "all"',
          q(
            `"calculations": [{ "op": "COUNT" }, { "op": "MAX", "column": "duration_ms" }], "havings": [{ "calculate_op": "MAX", «"column": "latency"», "op": ">", "value": 1 }], "time_range": 1800`,
          ),
        ),
        options: COLUMNS,
        says: 'is not a column of any dataset of the environment',
      },
    ],
    good: [
      {
        title: 'known columns, a calculated field of the query, a having naming a calculation',
        doc: trigger(
          '"dataset_slug": "api"',
          q(
            `"calculations": [{ "op": "COUNT" }, { "op": "P99", "column": "duration_ms" }], "filters": [{ "column": "slow", "op": "=", "value": true }], "calculated_fields": [{ "name": "slow", "expression": "GT($duration_ms, 500)" }], "breakdowns": ["http.route"], "havings": [{ "calculate_op": "P99", "column": "duration_ms", "op": ">", "value": 1 }], "time_range": 1800`,
          ),
        ),
        options: COLUMNS,
      },
      {
        title: 'a dataset whose columns are not known is not checked',
        doc: trigger('"dataset_slug": "web"', q(`${COUNT}, "breakdowns": ["anything"], "time_range": 1800`)),
        options: COLUMNS,
      },
      {
        title: 'no column lists at all',
        doc: trigger('"dataset_slug": "api"', q(`${COUNT}, "breakdowns": ["anything"], "time_range": 1800`)),
      },
    ],
  },
  'query/hidden-column': {
    bad: [
      {
        title: 'a breakdown on a hidden column',
        doc: trigger(
          '"dataset_slug": "api"',
          q(`${COUNT}, "breakdowns": [«"internal.debug_token"»], "time_range": 1800`),
        ),
        options: COLUMNS,
        says: '"internal.debug_token" is a hidden column of api',
      },
    ],
    good: [
      {
        title: 'a visible column',
        doc: trigger('"dataset_slug": "api"', q(`${COUNT}, "breakdowns": ["http.route"], "time_range": 1800`)),
        options: COLUMNS,
      },
    ],
  },
  'query/unknown-member': {
    bad: [
      {
        title: 'in the query',
        doc: trigger(q(`${COUNT}, «"timerange": 1800», "time_range": 1800`)),
        says: '"timerange" is not a member of the query',
      },
      { title: 'in a calculation', doc: trigger(calc('{ "op": "COUNT", «"alias": "n"» }')) },
    ],
    good: [{ title: 'known members only', doc: trigger(q(`${COUNT}, "breakdowns": ["service"], "time_range": 1800`)) }],
  },
};

describe('what the service accepts (service facts) is never an error', () => {
  test('granularity 300 with time_range 1800 on a metrics dataset: no error, one coarse-granularity note', () => {
    const doc = trigger(
      '"dataset_slug": "otel-metrics"',
      q(`"calculations": [{ "op": "AVG", "column": "cpu" }], "time_range": 1800, "granularity": 300`),
    );
    assert.deepEqual(
      lint(doc, METRICS).map((d) => [d.rule, d.severity]),
      [['query/granularity-coarse', 'info']],
    );
  });
  test('granularity equal to time_range on a metrics dataset: no error', () => {
    const doc = trigger('"dataset_slug": "otel-metrics"', q(`${COUNT}, "time_range": 1800, "granularity": 1800`));
    assert.deepEqual(
      lint(doc, METRICS).filter((d) => d.severity === 'error'),
      [],
    );
  });
});

describe('what the service refuses on write (service facts) is an error', () => {
  const errors = (doc: string) =>
    lint(doc)
      .filter((d) => d.severity === 'error')
      .map((d) => d.rule);
  test('a named calculation without formulas', () => {
    assert.deepEqual(errors(trigger(calc('{ "op": "COUNT", "name": "total" }'))), ['query/calculation-needs-formula']);
  });
  test('calculation-level filters without formulas', () => {
    assert.deepEqual(errors(trigger(calc('{ "op": "COUNT", "filters": [{ "column": "error", "op": "exists" }] }'))), [
      'query/calculation-needs-formula',
    ]);
  });
  test('two calculations with the same name', () => {
    const doc = trigger(
      q(
        `"calculations": [{ "op": "COUNT", "name": "a" }, { "op": "SUM", "column": "x", "name": "a" }], "formulas": [{ "name": "r", "expression": "$a" }], "time_range": 1800`,
      ),
    );
    assert.deepEqual(errors(doc), ['query/calculation-name-duplicate']);
  });
  test('a formula named like a calculation', () => {
    const doc = trigger(
      q(
        `"calculations": ${calcs(2)}, "formulas": [{ "name": "a0", "expression": "DIV($a0, $a1)" }], "time_range": 1800`,
      ),
    );
    assert.deepEqual(errors(doc), ['query/formula-name']);
  });
  test('a tag value outside ^[a-z][a-z0-9/-]{1,128}$', () => {
    assert.deepEqual(errors(trigger('"tags": [{ "key": "team", "value": "Edge team" }]')), ['trigger/tag-value']);
  });
  test('a having naming a formula without calculate_op is accepted', () => {
    const doc = trigger(
      q(
        `"calculations": ${calcs(2)}, "formulas": [{ "name": "ratio", "expression": "DIV($a0, $a1)" }], "havings": [{ "column": "ratio", "op": ">", "value": 0.5 }], "time_range": 1800`,
      ),
    );
    assert.deepEqual(errors(doc), []);
  });
});

test('every rule has failing and passing cases', () => {
  const missing = RULES.filter((r) => CASES[r.id].bad.length === 0 || CASES[r.id].good.length === 0).map((r) => r.id);
  assert.deepEqual(missing, []);
});

for (const info of RULES) {
  const { bad, good } = CASES[info.id];
  describe(info.id, () => {
    for (const c of bad) {
      test(`flags ${c.title}`, () => {
        const { text, range } = marked(c.bytes === true ? asRead(c.doc) : c.doc);
        const found = lintCase(c, text, info.id).filter((d) => d.rule === info.id);
        assert.deepEqual(
          found.map((d) => d.range),
          [range],
        );
        const [diagnostic] = found;
        assert.ok(diagnostic);
        assert.equal(diagnostic.severity, info.severity);
        if (c.says !== undefined) assert.ok(diagnostic.message.includes(c.says), `message: ${diagnostic.message}`);
        if (c.fixed === undefined) {
          assert.equal(diagnostic.fix, undefined);
        } else {
          assert.ok(diagnostic.fix, 'a fix');
          assert.equal(applyFixes(text, diagnostic.fix.edits), unmarked(c.fixed));
        }
      });
    }
    for (const c of good) {
      test(`accepts ${c.title}`, () => {
        assert.deepEqual(lintCase(c, c.doc, info.id), []);
      });
    }
  });
}
