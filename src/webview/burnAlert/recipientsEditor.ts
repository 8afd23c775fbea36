// The burn alert form's recipients editor: the list the alert will have, the picker of the recipients seen
// (the team's by name, then ids in use), an ID typed in, and the deprecated type + target entry. What is
// picked or named but not added yet lives here; the ID being typed is kept with the edits (the page saves
// it), so it survives a hide or a close like number text does.
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import type { BurnAlert } from '../../api/schemas/burnAlert';
import { isDeprecatedRecipient } from '../../api/schemas/common';
import {
  writableRecipient,
  type BurnAlertEdits,
  type RecipientEdit,
  type RecipientOption,
} from '../protocol/burnAlertForm';
import { BURN_ALERT_TEXT } from '../protocol/text/burnAlertForm';
import { byId } from '../shared/dom';
import { field, invalid, messageLine, valueOf } from '../shared/fields';

const R = (): (typeof BURN_ALERT_TEXT)['recipients'] => BURN_ALERT_TEXT.recipients;

/** What of the page's session the editor reads and changes. */
export interface RecipientsSession {
  loaded: BurnAlert;
  edits: BurnAlertEdits;
  options: readonly RecipientOption[];
  /** The ids of the team's recipients as the service lists them; undefined when the list could not be read. */
  listed: ReadonlySet<string> | undefined;
  /** The ID typed in and not added yet. */
  recipientId: string;
}

/** What the page does for the editor. */
export interface RecipientsPage {
  /** After a change: touches the named fields, saves the edits and draws the page. */
  edited(...fields: string[]): void;
}

function currentRecipients(s: RecipientsSession): RecipientEdit[] {
  return s.edits.recipients ?? (s.loaded.recipients ?? []).map(writableRecipient);
}

const recipientsUnknown = (s: RecipientsSession): boolean =>
  s.edits.recipients === undefined && s.loaded.recipients === undefined;

/** A recipient's row: its name when seen, and, where the team's list is known and lacks its id, that it does. */
function recipientLabel(r: RecipientEdit, s: RecipientsSession): string {
  if (r.id === undefined) return `${r.type ?? '?'}: ${r.target ?? '?'}`;
  const known = s.options.find((o) => o.id === r.id);
  const what = [r.type, r.target].filter((x) => x !== undefined && x !== '').join(': ');
  const label = known ? known.label : what === '' ? r.id : `${what} (${r.id})`;
  // The service decides whether an id names a recipient: one its list lacks is kept, and said.
  return s.listed === undefined || s.listed.has(r.id) ? label : R().notListed(label);
}

/** The problem of an ID typed and not added: Save would not send it. */
export function typedIdProblems(s: RecipientsSession): string[] {
  return s.recipientId.trim() === '' ? [] : [R().idNotAdded];
}

export class RecipientsEditor {
  /** The recipient chosen in the picker, not added yet. */
  private picked = '';
  /** The recipient named by type and target, not added yet; `missing` once Add found half of it. */
  private readonly deprecated = { type: '', target: '', missing: false };
  /** What Add said about the typed ID (empty, already chosen); gone as the user types again. */
  private idMessage: string | undefined;

  constructor(
    private readonly s: RecipientsSession,
    private readonly page: RecipientsPage,
  ) {}

  /** The fieldset: `errors` are the recipients' problems, `idErrors` the typed ID's. */
  view(errors: readonly string[], idErrors: readonly string[]): TemplateResult {
    const s = this.s;
    return html`<fieldset class="recipients-editor">
      <legend>${R().legend}</legend>
      <div class="help">${BURN_ALERT_TEXT.help.recipients}</div>
      <p class="warning" id="recipients-unknown" ?hidden=${!recipientsUnknown(s)}>${R().unknown}</p>
      ${this.list(errors.length > 0)}
      ${messageLine('error', 'f-recipients', errors)}
      ${this.picker()}
      ${this.idEntry(idErrors)}
      ${this.deprecatedEntry()}
    </fieldset>`;
  }

  private list(bad: boolean): TemplateResult {
    const current = currentRecipients(this.s);
    const items =
      current.length === 0
        ? html`<li class="empty">${recipientsUnknown(this.s) ? R().unknownEmpty : R().none}</li>`
        : current.map((r, index) => this.item(recipientLabel(r, this.s), isDeprecatedRecipient(r), index));
    return html`<ul id="recipients" class="recipients" aria-label=${R().listLabel} ${invalid(bad)}>${items}</ul>`;
  }

  private item(label: string, deprecated: boolean, index: number): TemplateResult {
    const badge = deprecated
      ? html`<span class="badge deprecated" title=${R().deprecatedTitle}>${R().deprecatedBadge}</span>`
      : nothing;
    return html`<li><span class="recipient-label">${label}</span>${badge}<vscode-button secondary aria-label=${R().removeLabel(label)}
      @click=${() => this.remove(index)}>${R().remove}</vscode-button></li>`;
  }

  /** The recipients seen in the environment that the alert does not have yet, to add by ID. */
  private picker(): TemplateResult {
    const taken = new Set(
      currentRecipients(this.s)
        .map((r) => r.id)
        .filter((id) => id !== undefined),
    );
    const available = this.s.options.filter((o) => !taken.has(o.id));
    const choices = [{ id: '', label: available.length === 0 ? R().noOthers : R().choose }, ...available];
    // An option keeps its node only while its value and label stay: the picker reads its options when they come and go.
    return html`<div class="inline">
      <vscode-single-select id="recipient-pick" aria-label=${R().pickLabel} .label=${R().pickLabel} .value=${live(this.picked)}
        @change=${(e: Event) => (this.picked = valueOf(e))}>
        ${repeat(
          choices,
          (o) => `${o.id}\n${o.label}`,
          (o) => html`<vscode-option value=${o.id}>${o.label}</vscode-option>`,
        )}
      </vscode-single-select>
      <vscode-button id="add-recipient" secondary @click=${() => this.addPicked()}>${R().add}</vscode-button>
    </div>`;
  }

  /** Any recipient by its ID, also one the lists here lack (they may be stale or refused): the service decides. */
  private idEntry(errors: readonly string[]): TemplateResult {
    const shown = this.idMessage === undefined ? errors : [this.idMessage];
    // Enter adds, as in a one-line input box; the form itself is never submitted by it.
    const control = html`<div class="inline">
      <vscode-textfield id="f-recipient-id" .value=${live(this.s.recipientId)} ${invalid(shown.length > 0)}
        @input=${(e: Event) => this.typeId(valueOf(e))} @keydown=${(e: KeyboardEvent) => this.idKey(e)}></vscode-textfield>
      <vscode-button id="add-recipient-id" secondary @click=${() => this.addTyped()}>${R().addId}</vscode-button>
    </div>`;
    return field({ id: 'f-recipient-id', label: R().idLabel, control, help: R().idHelp, errors: shown });
  }

  private deprecatedEntry(): TemplateResult {
    const d = this.deprecated;
    const typeControl = html`<vscode-textfield id="f-recipient-type" placeholder=${R().typePlaceholder} .value=${live(d.type)}
      @input=${(e: Event) => (d.type = valueOf(e))}></vscode-textfield>`;
    const targetControl = html`<vscode-textfield id="f-recipient-target" placeholder=${R().targetPlaceholder} .value=${live(d.target)}
      @input=${(e: Event) => (d.target = valueOf(e))}></vscode-textfield>`;
    return html`<details>
      <summary>${R().deprecatedSummary}</summary>
      <p class="help">${R().deprecatedHelp}</p>
      ${field({ id: 'f-recipient-type', label: R().typeLabel, control: typeControl, errors: [] })}
      ${field({ id: 'f-recipient-target', label: R().targetLabel, control: targetControl, errors: [] })}
      ${messageLine('error', 'deprecated', d.missing ? [R().needBoth] : [])}
      <vscode-button id="add-deprecated-recipient" secondary @click=${() => this.addDeprecated()}>${R().addDeprecated}</vscode-button>
    </details>`;
  }

  private set(recipients: RecipientEdit[]): void {
    this.s.edits.recipients = recipients;
    this.picked = '';
    this.page.edited('recipients');
  }

  private addPicked(): void {
    const id = this.picked;
    if (id === '' || !this.s.options.some((o) => o.id === id)) return;
    this.set([...currentRecipients(this.s), { id }]);
  }

  private typeId(text: string): void {
    this.s.recipientId = text;
    this.idMessage = undefined;
    // Saved as typed (not touched: that it is not added yet is said at Save, not while typing).
    this.page.edited();
  }

  private idKey(event: KeyboardEvent): void {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    this.addTyped();
  }

  /** Adds the typed ID, trimmed, as `{ id }` (spec 2.3: the id alone names a recipient). */
  private addTyped(): void {
    const id = this.s.recipientId.trim();
    const taken = currentRecipients(this.s).some((r) => r.id === id);
    this.idMessage = id === '' ? R().idEmpty : taken ? R().idTaken(id) : undefined;
    if (this.idMessage !== undefined) {
      this.page.edited();
      return;
    }
    this.s.recipientId = '';
    this.set([...currentRecipients(this.s), { id }]);
  }

  private addDeprecated(): void {
    const d = this.deprecated;
    const type = d.type.trim();
    const target = d.target.trim();
    d.missing = type === '' || target === '';
    if (d.missing) {
      this.page.edited();
      return;
    }
    d.type = '';
    d.target = '';
    this.set([...currentRecipients(this.s), { type, target }]);
  }

  private remove(index: number): void {
    this.set(currentRecipients(this.s).filter((_, i) => i !== index));
    // Focus stays in the list: on the recipient that took this one's place, or the picker once it is empty.
    const buttons = byId('recipients').querySelectorAll<HTMLElement>('vscode-button');
    (buttons[Math.min(index, buttons.length - 1)] ?? byId('recipient-pick')).focus();
  }
}
