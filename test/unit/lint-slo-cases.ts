// The cases of the burn alert and definitions file rules (lint-rules.test.ts runs them as it runs the trigger
// rules'): each document with «markers» around the one diagnostic's range, the fixed document where there is a
// fix, and documents that keep the rule.
import type { LintOptions } from '../../src/lint';

interface Case {
  title: string;
  doc: string;
  options?: LintOptions;
  fixed?: string;
  says?: string;
}

/** A file of one member a line: the base members, each replaced by a member given with the same key, or removed by `-key`. */
function fileOf(base: readonly string[], members: readonly string[], wrap: (lines: string[]) => string): string {
  const keyOf = (line: string) => /^«?"([^"]+)"/.exec(line)?.[1];
  const lines = [...base];
  for (const m of members) {
    const key = m.startsWith('-') ? m.slice(1) : keyOf(m);
    const i = lines.findIndex((l) => keyOf(l) === key);
    if (m.startsWith('-')) {
      if (i >= 0) lines.splice(i, 1);
    } else if (i >= 0) lines[i] = m;
    else lines.push(m);
  }
  return wrap(lines);
}

const ALERT = [
  '"id": "ba_1"',
  '"dataset_slug": "checkout"',
  '"slo": { "id": "slo_1", "name": "Checkout availability" }',
  '"alert_type": "exhaustion_time"',
  '"exhaustion_minutes": 240',
  '"recipients": [{ "id": "rcp_1" }]',
];
const BUDGET_RATE = [
  '"alert_type": "budget_rate"',
  '-exhaustion_minutes',
  '"budget_rate_window_minutes": 60',
  '"budget_rate_decrease_threshold_per_million": 10000',
];
const objectText = (lines: string[]) => `{\n  ${lines.join(',\n  ')}\n}`;
/** A burn alert file; `whole`: the markers go around the whole object (a missing member is reported there). */
const alert = (...members: string[]) => fileOf(ALERT, members, objectText);
const wholeAlert = (...members: string[]) => `«${alert(...members)}»`;

const DEFINITIONS = ['"route": { "name": "http.route" }', '"user": null'];
const definitions = (...members: string[]) =>
  fileOf(DEFINITIONS, members, (lines) => `{\n  "dataset_slug": "checkout",\n  "definitions": ${objectText(lines)}\n}`);
const COLUMNS: LintOptions = { columns: { checkout: { names: ['http.route', 'user.id'] } } };

const good = (title: string, doc: string, options?: LintOptions): Case[] => [
  { title, doc, ...(options ? { options } : {}) },
];
const goodAlerts = [
  ...good('an exhaustion_time alert', alert()),
  ...good('a budget_rate alert', alert(...BUDGET_RATE)),
];
const goodDefinitions = good('a definitions file', definitions(), COLUMNS);

export const SLO_CASES = {
  'burn-alert/file': { bad: [{ title: 'an array', doc: '«[]»', says: 'one burn alert object' }], good: goodAlerts },
  'burn-alert/id': {
    bad: [
      { title: 'no id', doc: wholeAlert('-id'), says: 'id is required' },
      { title: 'an empty id', doc: alert('«"id": ""»') },
    ],
    good: goodAlerts,
  },
  'burn-alert/dataset-slug': {
    bad: [{ title: 'a number', doc: alert('«"dataset_slug": 5»') }],
    good: goodAlerts,
  },
  'burn-alert/slo': { bad: [{ title: 'no SLO id', doc: alert('«"slo": { "name": "x" }»') }], good: goodAlerts },
  'burn-alert/alert-type': {
    bad: [
      { title: 'an unknown type', doc: alert('«"alert_type": "fast_burn"»'), says: 'exhaustion_time or budget_rate' },
    ],
    good: goodAlerts,
  },
  'burn-alert/exhaustion-minutes': {
    bad: [
      { title: 'below 0 (spec 7.3)', doc: alert('«"exhaustion_minutes": -1»'), says: 'a whole number of at least 0' },
      { title: 'a fraction', doc: alert('«"exhaustion_minutes": 1.5»') },
      { title: 'missing on exhaustion_time (spec 7.2)', doc: wholeAlert('-exhaustion_minutes'), says: 'is required' },
      {
        title: 'given on budget_rate (spec 7.1)',
        doc: alert(...BUDGET_RATE, '«"exhaustion_minutes": 60»'),
        says: 'must not be given',
        fixed: alert(...BUDGET_RATE),
      },
    ],
    good: goodAlerts,
  },
  'burn-alert/budget-rate-window': {
    bad: [
      { title: 'under 60', doc: alert(...BUDGET_RATE, '«"budget_rate_window_minutes": 59»'), says: 'at least 60' },
      { title: 'missing on budget_rate', doc: wholeAlert(...BUDGET_RATE, '-budget_rate_window_minutes') },
      {
        title: 'given on exhaustion_time',
        doc: alert('«"budget_rate_window_minutes": 60»'),
        fixed: alert(),
      },
    ],
    good: goodAlerts,
  },
  'burn-alert/budget-rate-threshold': {
    bad: [
      {
        title: 'above a million',
        doc: alert(...BUDGET_RATE, '«"budget_rate_decrease_threshold_per_million": 1000001»'),
        says: 'from 1 to 1000000',
      },
      { title: 'zero', doc: alert(...BUDGET_RATE, '«"budget_rate_decrease_threshold_per_million": 0»') },
      {
        title: 'given on exhaustion_time',
        doc: alert('«"budget_rate_decrease_threshold_per_million": 5»'),
        fixed: alert(),
      },
    ],
    good: goodAlerts,
  },
  'burn-alert/description': {
    bad: [{ title: '1024 characters', doc: alert(`«"description": "${'x'.repeat(1024)}"»`), says: '1023' }],
    good: good('1023 characters', alert(`"description": "${'x'.repeat(1023)}"`)),
  },
  'burn-alert/recipients': {
    bad: [
      { title: 'none (spec 7.4)', doc: alert('«"recipients": []»'), says: 'at least one recipient' },
      { title: 'missing', doc: wholeAlert('-recipients') },
    ],
    good: goodAlerts,
  },
  'burn-alert/recipient': {
    bad: [{ title: 'a type without target', doc: alert('"recipients": [«{ "type": "email" }»]') }],
    good: good(
      'a recipient by type and target',
      alert('"recipients": [{ "type": "email", "target": "a@example.com" }]'),
    ),
  },
  'burn-alert/read-only-member': {
    bad: [{ title: 'triggered', doc: alert('«"triggered": true»'), fixed: alert() }],
    good: goodAlerts,
  },
  'burn-alert/unknown-member': {
    bad: [{ title: 'a misspelt member', doc: alert('«"exhaustion_minute": 30»'), says: 'exhaustion_minute' }],
    good: goodAlerts,
  },
  'definitions/file': {
    bad: [
      { title: 'an array', doc: '«[]»' },
      { title: 'a member of its own', doc: definitions().replace('"dataset_slug"', '«"team": 1»,\n  "dataset_slug"') },
    ],
    good: goodDefinitions,
  },
  'definitions/dataset-slug': {
    bad: [
      {
        title: 'environment-wide',
        doc: definitions().replace('"dataset_slug": "checkout"', '«"dataset_slug": "__all__"»'),
        says: 'not environment-wide',
      },
    ],
    good: goodDefinitions,
  },
  'definitions/unknown-type': {
    bad: [
      { title: 'a misspelt type', doc: definitions('«"trace_ids": { "name": "x" }»'), says: 'did you mean trace_id' },
    ],
    good: goodDefinitions,
  },
  'definitions/column': {
    bad: [
      { title: 'a bare column name', doc: definitions('«"route": "http.route"»'), says: 'null (unset) or a column' },
    ],
    good: goodDefinitions,
  },
  'definitions/clear-with-null': {
    bad: [
      {
        title: 'an empty name',
        doc: definitions('«"route": { "name": "" }»'),
        fixed: definitions('"route": null'),
      },
    ],
    good: good('null', definitions('"route": null')),
  },
  'definitions/column-type': {
    bad: [
      {
        title: 'a column_type',
        doc: definitions('"route": { "name": "http.route", «"column_type": "column"» }'),
        fixed: definitions('"route": { "name": "http.route" }'),
      },
    ],
    good: goodDefinitions,
  },
  'definitions/unknown-column': {
    bad: [
      {
        title: 'a column the dataset does not have',
        doc: definitions('"route": { «"name": "http.path"» }'),
        options: COLUMNS,
        says: '"http.path"',
      },
    ],
    good: [
      ...goodDefinitions,
      ...good('any column where the columns are not known', definitions('"route": { "name": "x" }')),
    ],
  },
} satisfies Record<string, { bad: Case[]; good: Case[] }>;
