// The add/edit connection dialogue as plain logic (no vscode import, so every path through it is
// unit-tested): adding asks the seven fields in order, each box with Back to the one before; then a summary
// page lists every field, any of which can be picked and changed, and runs the check before anything is
// saved. Editing opens at the summary. Escape anywhere ends the dialogue and keeps nothing.
// connectionCommands.ts shows it with VS Code's QuickInput (quickInputPrompter.ts).
import * as l10n from '@vscode/l10n';
import { keyChanges, type StoredKeys, type WizardAnswer } from './connectionSave';
import { checkServiceUrl, connectionLabel, newConnectionId, normaliseUrl, type ConnectionProfile } from './profiles';
import {
  asText,
  FIELDS,
  fieldLabel,
  fieldStep,
  fieldValue,
  missingField,
  originChanged,
  withAnswer,
  type Draft,
  type FieldContext,
  type FieldId,
  type WizardStep,
} from './wizardFields';

/** What a box or page answers: a value, Back, or cancel (Escape: the dialogue ends). */
export type Reply<T> = { kind: 'value'; value: T } | { kind: 'back' } | { kind: 'cancel' };

export type SummaryChoice = { kind: 'save' } | { kind: 'field'; field: FieldId };

export interface SummaryItem {
  choice: SummaryChoice;
  label: string;
  description?: string | undefined;
  detail?: string | undefined;
}

/** The page that ends the dialogue: every field with its value, and Check and Save. */
export interface SummaryPage {
  title: string;
  placeHolder: string;
  back: boolean;
  items: SummaryItem[];
  /** The item the page starts on. */
  active: SummaryChoice;
}

export interface Prompter {
  /** Asks one question. */
  input(step: WizardStep): Promise<Reply<string>>;
  /** Shows the summary page. */
  pick(page: SummaryPage): Promise<Reply<SummaryChoice>>;
  /** A modal question with one action; false when dismissed. */
  confirm(message: string, action: string): Promise<boolean>;
}

/** What the check before saving decided: save (checked, or anyway), change a field first, or keep nothing. */
export type CheckDecision =
  | { kind: 'save'; checked?: string | undefined }
  | { kind: 'edit'; note: string; field?: FieldId | undefined }
  | { kind: 'cancel' };

export interface WizardOptions {
  prompter: Prompter;
  /** Every saved connection: names must be unique. */
  others: readonly ConnectionProfile[];
  /** The connection being edited, and which keys it has stored. */
  existing?: { profile: ConnectionProfile; stored: StoredKeys } | undefined;
  /** Checks an answer with the service and asks what to do when it does not work. */
  check(answer: WizardAnswer): Promise<CheckDecision>;
  newId?: () => string;
}

export interface WizardResult {
  answer: WizardAnswer;
  /** What the check found ("5 datasets"); undefined when saved without a working check. */
  checked?: string | undefined;
}

interface Run {
  o: WizardOptions;
  ctx: FieldContext;
  title: string;
  draft: Draft;
}

type Step = 'done' | 'back' | 'cancel';

/** Runs the dialogue; undefined when it ended without saving (nothing is kept then). */
export async function runConnectionWizard(o: WizardOptions): Promise<WizardResult | undefined> {
  const old = o.existing?.profile;
  const run: Run = {
    o,
    ctx: { others: o.others, existing: o.existing },
    title: old ? l10n.t('Edit Connection "{0}"', connectionLabel(old.name)) : l10n.t('Add Connection'),
    draft: old ? draftOf(old) : {},
  };
  if (!old && (await firstPass(run, 0)) === 'cancel') return undefined;
  return summary(run);
}

/** The fields of a stored connection, to be changed on the summary. */
function draftOf(p: ConnectionProfile): Draft {
  return { name: p.name, baseUrl: p.baseUrl, uiUrl: p.uiUrl, team: p.team, environmentId: p.environmentId };
}

/** The fields in order from `start`, Back going to the one before; 'done' after the last. */
async function firstPass(run: Run, start: number): Promise<'done' | 'cancel'> {
  let index = start;
  while (index < FIELDS.length) {
    const field = FIELDS[index];
    if (field === undefined) break;
    const step = await askField(run, field, { step: index + 1, totalSteps: FIELDS.length, back: index > 0 });
    if (step === 'cancel') return 'cancel';
    index = step === 'back' ? index - 1 : index + 1;
  }
  return 'done';
}

/** The summary page until the connection is checked and saved, or the dialogue is cancelled. */
async function summary(run: Run): Promise<WizardResult | undefined> {
  let note: string | undefined;
  let active: SummaryChoice = { kind: 'save' };
  for (;;) {
    const reply = await run.o.prompter.pick(summaryPage(run, note, active));
    if (reply.kind === 'cancel') return undefined;
    if (reply.kind === 'back') {
      // Only the first pass of Add has Back here: to its last field, and on from there.
      if ((await firstPass(run, FIELDS.length - 1)) === 'cancel') return undefined;
      continue;
    }
    const choice = reply.value;
    const field = choice.kind === 'field' ? choice.field : missingField(run.draft, run.ctx);
    if (field !== undefined) {
      if ((await askField(run, field, { back: true })) === 'cancel') return undefined;
      active = choice.kind === 'save' ? choice : { kind: 'field', field };
      continue;
    }
    const answer = answerOf(run);
    const decision = await run.o.check(answer);
    if (decision.kind === 'save') return { answer, checked: decision.checked };
    if (decision.kind === 'cancel') return undefined;
    note = decision.note;
    active = decision.field === undefined ? { kind: 'save' } : { kind: 'field', field: decision.field };
  }
}

function summaryPage(run: Run, note: string | undefined, active: SummaryChoice): SummaryPage {
  const save: SummaryItem = {
    choice: { kind: 'save' },
    label: `$(check) ${l10n.t('Check and Save')}`,
    description: l10n.t('one read with the configuration key, then saved'),
    // The check's words may quote the service's: as text.
    detail: note === undefined ? undefined : l10n.t('Last check: {0}', asText(note, 500)),
  };
  const fields = FIELDS.map(
    (field): SummaryItem => ({
      choice: { kind: 'field', field },
      label: fieldLabel(field),
      description: fieldValue(field, run.draft, run.ctx),
    }),
  );
  return {
    title: l10n.t('{0}: review and save', run.title),
    placeHolder: l10n.t('Pick a field to change it, or Check and Save'),
    back: run.o.existing === undefined,
    items: [save, ...fields],
    active,
  };
}

type Place = Pick<WizardStep, 'step' | 'totalSteps' | 'back'>;

/** Asks one field until it is answered, Back is chosen or the dialogue is cancelled. */
async function askField(run: Run, field: FieldId, place: Place): Promise<Step> {
  let typed: string | undefined;
  for (;;) {
    const fields = fieldStep(field, run.draft, run.ctx);
    const step: WizardStep = { field, title: run.title, ...place, ...fields, value: typed ?? fields.value };
    const reply = await run.o.prompter.input(step);
    if (reply.kind !== 'value') return reply.kind;
    // Asked again, a box holds what was typed, but never a key.
    if (fields.password !== true) typed = reply.value;
    // The box refuses an answer with an error; a scripted prompter might not.
    if (step.validate(reply.value)?.severity === 'error') continue;
    if (field === 'baseUrl' && !(await plainHttpAccepted(run, reply.value))) continue;
    run.draft = withAnswer(run.draft, field, reply.value);
    return 'done';
  }
}

/** A plain-http base URL to another host is used only once the user confirmed it; declining asks again. */
async function plainHttpAccepted(run: Run, value: string): Promise<boolean> {
  const check = checkServiceUrl(value, l10n.t('Base URL'));
  if (!check.ok || check.warning === undefined) return true;
  return run.o.prompter.confirm(
    l10n.t(
      'The base URL {0} uses plain http: the configuration and management keys would cross the network unencrypted. Use it anyway?',
      check.url.host,
    ),
    l10n.t('Use Plain HTTP'),
  );
}

/** The answer the draft makes; called once missingField found nothing missing. */
function answerOf(run: Run): WizardAnswer {
  const { draft, ctx } = run;
  const url = (text: string | undefined): string => {
    const check = checkServiceUrl(text ?? '', '');
    if (!check.ok) throw new RangeError(`a checked URL did not parse: ${check.reason}`);
    return normaliseUrl(check.url);
  };
  const moved = originChanged(draft, ctx);
  const profile: ConnectionProfile = {
    id: ctx.existing?.profile.id ?? (run.o.newId ?? newConnectionId)(),
    name: (draft.name ?? '').trim(),
    baseUrl: url(draft.baseUrl),
    uiUrl: url(draft.uiUrl),
    team: (draft.team ?? '').trim(),
    environmentId: (draft.environmentId ?? '').trim(),
  };
  const keys = { configKey: draft.configKey, managementKey: draft.managementKey };
  return { profile, originChanged: moved, ...keyChanges(keys, ctx.existing?.stored, moved) };
}
