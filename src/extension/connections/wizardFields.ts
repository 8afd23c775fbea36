// The seven fields of the connection dialogue: how each is asked (prompt, check of the answer), what an
// answer does to the draft, and how the summary page shows it. Keys are only ever typed into password
// boxes that start empty; the draft holds a key typed in this run and nothing of a stored one. No vscode import.
import * as l10n from '@vscode/l10n';
import { safeLabel } from '../core/text';
import type { StoredKeys } from './connectionSave';
import {
  checkEnvironmentId,
  checkKey,
  checkName,
  checkServiceUrl,
  checkTeam,
  connectionLabel,
  normaliseUrl,
  sameOrigin,
  type ConnectionProfile,
} from './profiles';

export type FieldId = 'name' | 'baseUrl' | 'uiUrl' | 'team' | 'environmentId' | 'configKey' | 'managementKey';
export const FIELDS: readonly FieldId[] = [
  'name',
  'baseUrl',
  'uiUrl',
  'team',
  'environmentId',
  'configKey',
  'managementKey',
];
type TextField = Exclude<FieldId, 'configKey' | 'managementKey'>;

/** Typed in the management key box: no management key (a stored one is deleted when saved). */
export const REMOVE_KEY = '-';

interface StepProblem {
  message: string;
  severity: 'error' | 'warning';
}

/** One question: a field's box with its prompt and the check of what is typed. */
export interface WizardStep {
  field: FieldId;
  title: string;
  /** The position in the first pass through the fields; absent when a field is changed from the summary. */
  step?: number | undefined;
  totalSteps?: number | undefined;
  prompt: string;
  placeHolder?: string | undefined;
  value?: string | undefined;
  password?: boolean | undefined;
  /** Whether the box offers Back. */
  back: boolean;
  /** An 'error' blocks the answer; a 'warning' is shown but lets it through. */
  validate(value: string): StepProblem | undefined;
}

/** What the user gave in this run of the dialogue. */
export interface Draft {
  name?: string | undefined;
  baseUrl?: string | undefined;
  uiUrl?: string | undefined;
  team?: string | undefined;
  environmentId?: string | undefined;
  /** A configuration key typed in this run (a stored key is never read into the dialogue). */
  configKey?: string | undefined;
  /** A management key typed in this run; '' when the user asked for none. */
  managementKey?: string | undefined;
}

/** What the dialogue edits: the other connections (names are unique), and the connection being edited. */
export interface FieldContext {
  others: readonly ConnectionProfile[];
  existing?: { profile: ConnectionProfile; stored: StoredKeys } | undefined;
}

type StepFields = Pick<WizardStep, 'prompt' | 'placeHolder' | 'value' | 'password' | 'validate'>;

const error = (message: string | undefined): StepProblem | undefined =>
  message === undefined ? undefined : { message, severity: 'error' };

function urlProblem(what: string): (v: string) => StepProblem | undefined {
  return (v) => {
    const r = checkServiceUrl(v, what);
    if (!r.ok) return { message: r.reason, severity: 'error' };
    return r.warning === undefined ? undefined : { message: r.warning, severity: 'warning' };
  };
}

/** Whether the base URL given now points at another server than the stored connection's. */
export function originChanged(draft: Draft, ctx: FieldContext): boolean {
  const old = ctx.existing?.profile;
  if (old === undefined || draft.baseUrl === undefined) return false;
  const check = checkServiceUrl(draft.baseUrl, '');
  return check.ok && !sameOrigin(old.baseUrl, normaliseUrl(check.url));
}

/** The stored keys that may still be used: a key is never sent to a host it was not entered for. */
function usableStored(draft: Draft, ctx: FieldContext): StoredKeys {
  const stored = ctx.existing?.stored;
  if (stored === undefined || originChanged(draft, ctx)) return { configKey: false, managementKey: false };
  return stored;
}

/** Whether the connection has a configuration key to check and save with. */
function hasConfigKey(draft: Draft, ctx: FieldContext): boolean {
  return draft.configKey !== undefined || usableStored(draft, ctx).configKey;
}

function textField(field: TextField, draft: Draft, ctx: FieldContext): StepFields {
  const value = draft[field];
  switch (field) {
    case 'name':
      // No default name: a prefilled "production" would label whatever server is entered next.
      return {
        prompt: l10n.t('A name for this connection. The status bar shows it; names containing "prod" are highlighted.'),
        placeHolder: l10n.t('e.g. production, staging'),
        value,
        validate: (v) => error(checkName(v, ctx.others, ctx.existing?.profile.id)),
      };
    case 'baseUrl':
      return {
        prompt: l10n.t('Base URL of the service API'),
        placeHolder: 'https://api.example.com',
        value,
        validate: urlProblem(l10n.t('Base URL')),
      };
    case 'uiUrl':
      return {
        prompt: l10n.t('URL of the service UI (links from the service are opened only on this host)'),
        placeHolder: 'https://ui.example.com',
        value,
        validate: urlProblem(l10n.t('UI URL')),
      };
    case 'team':
      return { prompt: l10n.t('Team slug'), value, validate: (v) => error(checkTeam(v)) };
    case 'environmentId':
      return {
        prompt: l10n.t('Environment id (used when creating API keys)'),
        value,
        validate: (v) => error(checkEnvironmentId(v)),
      };
  }
}

function configKeyField(draft: Draft, ctx: FieldContext): StepFields {
  const keep = hasConfigKey(draft, ctx);
  const host = draft.baseUrl === undefined ? undefined : checkServiceUrl(draft.baseUrl, '');
  const moved = originChanged(draft, ctx) && host?.ok === true ? ` ${movedNote(host.url.host)}` : '';
  return {
    prompt: `${configKeyPrompt(draft.configKey !== undefined ? 'typed' : keep ? 'stored' : 'none')}${moved}`,
    password: true,
    validate: (v) => (keep && v === '' ? undefined : error(checkKey(v, l10n.t('The configuration key')))),
  };
}

/** The configuration key box's prompt: what an empty answer keeps, if anything. */
function configKeyPrompt(keeps: 'typed' | 'stored' | 'none'): string {
  switch (keeps) {
    case 'typed':
      return l10n.t(
        "Configuration key, sent as X-Service-Team (leave empty to keep the key you typed). Stored only in VS Code's secret storage.",
      );
    case 'stored':
      return l10n.t(
        "Configuration key, sent as X-Service-Team (leave empty to keep the stored key). Stored only in VS Code's secret storage.",
      );
    case 'none':
      return l10n.t("Configuration key, sent as X-Service-Team. Stored only in VS Code's secret storage.");
  }
}

const movedNote = (host: string): string =>
  l10n.t(
    'The base URL now points at {0}: give its keys (the stored ones are deleted, never sent to a new server).',
    host,
  );

/** What the management key box says an empty answer does, as things stand. */
function managementHint(draft: Draft, ctx: FieldContext): { hint: string; removable: boolean } {
  if (draft.managementKey !== undefined && draft.managementKey !== '') {
    return { hint: l10n.t('leave empty to keep the key you typed, or type {0} for none', REMOVE_KEY), removable: true };
  }
  const stored = usableStored(draft, ctx).managementKey;
  if (stored && draft.managementKey === '') {
    return { hint: l10n.t('leave empty to delete the stored key, as chosen'), removable: false };
  }
  if (stored) {
    const hint = l10n.t('leave empty to keep the stored key, or type {0} to delete it', REMOVE_KEY);
    return { hint, removable: true };
  }
  return { hint: l10n.t('optional: leave empty for none'), removable: false };
}

/** KEY_ID:KEY_SECRET, both parts non-empty, no spaces. */
function managementKeyProblem(v: string): string | undefined {
  const colon = v.indexOf(':');
  const wellFormed = colon > 0 && colon < v.length - 1 && !/\s/.test(v);
  return wellFormed ? undefined : l10n.t('The management key has the form KEY_ID:KEY_SECRET');
}

function managementKeyField(draft: Draft, ctx: FieldContext): StepFields {
  const { hint, removable } = managementHint(draft, ctx);
  return {
    prompt: l10n.t(
      "Management key KEY_ID:KEY_SECRET, needed only for API keys ({0}). Stored only in VS Code's secret storage.",
      hint,
    ),
    password: true,
    validate: (v) => {
      if (v === '' || (removable && v === REMOVE_KEY)) return undefined;
      const problem = managementKeyProblem(v.trim());
      return problem === undefined ? undefined : error(`${problem} (${hint})`);
    },
  };
}

/** The box of one field as things stand in the draft. */
export function fieldStep(field: FieldId, draft: Draft, ctx: FieldContext): StepFields {
  if (field === 'configKey') return configKeyField(draft, ctx);
  if (field === 'managementKey') return managementKeyField(draft, ctx);
  return textField(field, draft, ctx);
}

/** The draft after an accepted answer. An empty key box keeps what the summary shows for that key. */
export function withAnswer(draft: Draft, field: FieldId, answer: string): Draft {
  if (field === 'configKey') return answer.trim() === '' ? draft : { ...draft, configKey: answer.trim() };
  if (field === 'managementKey') {
    const key = answer.trim();
    if (key === '') return draft;
    return { ...draft, managementKey: key === REMOVE_KEY ? '' : key };
  }
  return { ...draft, [field]: answer };
}

/** The first field the draft lacks or holds wrongly (a connection is saved only whole), or undefined. */
export function missingField(draft: Draft, ctx: FieldContext): FieldId | undefined {
  for (const field of FIELDS) {
    if (field === 'managementKey') continue;
    if (field === 'configKey') {
      if (!hasConfigKey(draft, ctx)) return field;
      continue;
    }
    if (fieldStep(field, draft, ctx).validate(draft[field] ?? '')?.severity === 'error') return field;
  }
  return undefined;
}

/** The name of a field, as the summary lists it. */
export function fieldLabel(field: FieldId): string {
  switch (field) {
    case 'name':
      return l10n.t('Name');
    case 'baseUrl':
      return l10n.t('Base URL');
    case 'uiUrl':
      return l10n.t('UI URL');
    case 'team':
      return l10n.t('Team slug');
    case 'environmentId':
      return l10n.t('Environment id');
    case 'configKey':
      return l10n.t('Configuration key');
    case 'managementKey':
      return l10n.t('Management key');
  }
}

/** Text in a picker line: shown as text (no icon, no control character), cut when long. */
export const asText = (text: string, max = 200): string => safeLabel(text, max).replace(/\$\(/g, '$\u200B(');

/** What the summary shows of a field: its value, or for a key only whether one is there (never the key). */
export function fieldValue(field: FieldId, draft: Draft, ctx: FieldContext): string {
  const usable = usableStored(draft, ctx);
  switch (field) {
    case 'configKey':
      if (draft.configKey !== undefined) return l10n.t('typed now (not shown)');
      return usable.configKey ? l10n.t('the stored key, kept') : l10n.t('missing');
    case 'managementKey': {
      const storedAtAll = ctx.existing?.stored.managementKey === true;
      if (draft.managementKey !== undefined && draft.managementKey !== '') return l10n.t('typed now (not shown)');
      const deleted = storedAtAll && (draft.managementKey === '' || !usable.managementKey);
      if (deleted) return l10n.t('the stored key is deleted when saved');
      return usable.managementKey ? l10n.t('the stored key, kept') : l10n.t('none (needed only for API keys)');
    }
    case 'name':
      return connectionLabel(draft.name ?? '');
    default:
      return asText(draft[field] ?? '');
  }
}
