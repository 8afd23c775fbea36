// The plan view: what an Apply of files would change, by kind (triggers, burn alerts, definitions, each followed
// by what is blocked of it) and action, each change with its members old -> new and its actions (open the file,
// Compare, leave it out of this apply), then Apply and Cancel; after the apply, each change's outcome in the same
// place. Drawn with lit-html from the host's model (never innerHTML), so names and values from files and the
// service stay text. Nothing is decided here: the page sends what was clicked, with the review it was drawn from,
// and the host checks it. Apply is never the focused control, so Enter applies nothing; for a production-like
// connection it waits for the name typed.
import './shared/boot';
import './shared/elements';
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import {
  PLAN_KINDS,
  PlanToWebview,
  type PlanBlockedGroup,
  type PlanChange,
  type PlanFromWebview,
  type PlanGroup,
  type PlanMember,
  type PlanViewModel,
} from './protocol/planView';
import { PLAN_PAGE_TEXT as T } from './protocol/text/planView';
import { byId, drawPage } from './shared/dom';
import { checkedOf, valueOf } from './shared/fields';
import { onHostMessage, post } from './shared/vscodeApi';

const send = (m: PlanFromWebview): void => post(m);
const app = byId('app');

let model: PlanViewModel | undefined;
/** The connection's name as typed, for a production-like connection; cleared with each new review. */
let typed = '';
let typedFor = -1;

const SIGN: Record<PlanChange['action'], string> = { create: '+', update: '~', delete: '-' };

function draw(): void {
  if (model !== undefined) drawPage(app, page(model));
}

function page(m: PlanViewModel): TemplateResult {
  return html`<header>
      <h1 id="title">${m.title}</h1>
      <p id="counts" class="counts">${m.counts}</p>
      ${m.notes.map((n) => html`<p class="note">${n}</p>`)}
    </header>
    ${PLAN_KINDS.map(
      (kind) =>
        html`${m.groups.filter((g) => g.kind === kind).map((g) => group(m, g))}
        ${m.blocked.filter((b) => b.kind === kind).map(blocked)}`,
    )}
    ${unchecked(m)}
    <footer class="actions-bar" aria-label=${T.actions}>
      <p id="status" class="status ${m.status.tone}" role="status">${m.status.text}</p>
      ${m.busy === null ? nothing : html`<p id="busy" class="busy" aria-live="polite">${m.busy}</p>`}
      ${differences(m)} ${actions(m)}
    </footer>`;
}

function group(m: PlanViewModel, g: PlanGroup): TemplateResult {
  return html`<section class="group ${g.action}" data-action=${g.action} data-kind=${g.kind}>
    <h2>${g.title}</h2>
    <ul class="changes">${g.changes.map((c) => change(m, c))}</ul>
  </section>`;
}

function change(m: PlanViewModel, c: PlanChange): TemplateResult {
  const review = m.review;
  const reviewing = m.phase === 'review' && m.confirm !== undefined;
  const exclude = (e: Event): void => send({ type: 'exclude', review, key: c.key, excluded: !checkedOf(e) });
  const include = reviewing
    ? html`<vscode-checkbox class="include" .checked=${live(!c.excluded)} title=${T.includeTitle(c.label)}
        @change=${exclude}>${T.include}</vscode-checkbox>`
    : nothing;
  const openLabel = c.action === 'delete' ? T.openService : T.openFile;
  const open = c.canOpen ? button(openLabel, () => send({ type: 'open', review, key: c.key })) : nothing;
  const compare = c.canCompare ? button(T.compare, () => send({ type: 'compare', review, key: c.key })) : nothing;
  return html`<li class="change ${c.action} ${c.excluded ? 'excluded' : ''}" data-key=${c.key}>
    <div class="change-head">
      <span class="sign" aria-hidden="true">${SIGN[c.action]}</span>
      <span class="change-label">${c.label}</span>
      ${c.excluded ? html`<span class="excluded-mark">(${T.excludedMark})</span>` : nothing}
      <span class="tools">${include}${open}${compare}</span>
    </div>
    ${c.file === undefined ? nothing : html`<p class="file">${c.file}</p>`}
    ${c.notes.map((n) => html`<p class="note">${n}</p>`)}
    ${members(c)} ${outcome(c)}
  </li>`;
}

/** A secondary button whose label is its whole text. */
const button = (label: string, onClick: () => void): TemplateResult =>
  html`<vscode-button secondary @click=${onClick}>${label}</vscode-button>`;

/** An update's members: Before -> After; a create's: each value it sends. Cell texts hold nothing but the value. */
function members(c: PlanChange): TemplateResult | typeof nothing {
  if (c.members.length === 0) return nothing;
  const withBefore = c.action === 'update';
  const note = (mb: PlanMember) =>
    mb.note === undefined ? nothing : html`<span class="member-note">${mb.note}</span>`;
  const before = (mb: PlanMember) =>
    withBefore
      ? html`<td class="before">${mb.before ?? ''}</td>
          <td class="arrow" aria-hidden="true">→</td>`
      : nothing;
  const row = (mb: PlanMember) => html`<tr>
    <th scope="row" class="path">${mb.path}</th>
    ${before(mb)}
    <td class="after">${mb.after}${note(mb)}</td>
  </tr>`;
  const heads = withBefore
    ? html`<th scope="col">${T.before}</th>
        <th></th>`
    : nothing;
  return html`<table class="members">
    <thead>
      <tr>
        <th scope="col">${T.member}</th>
        ${heads}
        <th scope="col">${withBefore ? T.after : T.value}</th>
      </tr>
    </thead>
    <tbody>${c.members.map(row)}</tbody>
  </table>`;
}

function outcome(c: PlanChange): TemplateResult | typeof nothing {
  const r = c.result;
  if (r === undefined) return nothing;
  return html`<div class="outcome ${r.outcome}">
    <p class="headline">${r.headline}</p>
    ${r.details.length === 0 ? nothing : html`<ul class="details">${r.details.map((d) => html`<li>${d}</li>`)}</ul>`}
  </div>`;
}

const list = (items: readonly string[]): TemplateResult => html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`;

function blocked(b: PlanBlockedGroup): TemplateResult {
  return html`<section class="blocked" data-kind=${b.kind}>
    <h2>${b.title}</h2>
    <ul>${b.entries.map((e) => html`<li><span class="where">${e.where}</span>${list(e.reasons)}</li>`)}</ul>
  </section>`;
}

function unchecked(m: PlanViewModel): TemplateResult | typeof nothing {
  if (m.unchecked.length === 0) return nothing;
  return html`<section class="unchecked"><h2>${T.unchecked}</h2>${list(m.unchecked)}</section>`;
}

function differences(m: PlanViewModel): TemplateResult | typeof nothing {
  if (m.differences.length === 0) return nothing;
  return html`<section class="differences"><h2>${T.differences}</h2>${list(m.differences)}</section>`;
}

function actions(m: PlanViewModel): TemplateResult {
  const review = m.review;
  const planAgain = (): void => send({ type: 'planAgain', review });
  const again = m.canPlanAgain
    ? html`<vscode-button id="plan-again" secondary @click=${planAgain}>${T.planAgain}</vscode-button>`
    : nothing;
  const c = m.confirm;
  if (c === undefined) return html`<div class="buttons">${again}</div>`;
  const name = c.typeName;
  const ready = c.count > 0 && (name === undefined || typed === name);
  const excluded = m.groups.flatMap((g) => g.changes.filter((x) => x.excluded).map((x) => x.key));
  const apply = () => {
    if (ready) send({ type: 'apply', review, excluded, typed: name === undefined ? '' : typed });
  };
  const typing =
    name === undefined
      ? nothing
      : html`<label class="type-name">${T.typeName(name)}
        <vscode-textfield id="type-name" aria-label=${T.typeNameLabel} .value=${live(typed)} @input=${(e: Event) => {
          typed = valueOf(e);
          draw();
        }}></vscode-textfield></label>`;
  return html`${typing}${c.count === 0 ? html`<p class="none-kept">${T.noneKept}</p>` : nothing}
    <div class="buttons">
      <vscode-button id="apply" ?disabled=${!ready} @click=${apply}>${c.label}</vscode-button>
      <vscode-button id="cancel" secondary @click=${() => send({ type: 'cancel', review })}>${T.cancel}</vscode-button>
    </div>`;
}

onHostMessage(PlanToWebview, (m) => {
  model = m.model;
  if (typedFor !== m.model.review) {
    typed = '';
    typedFor = m.model.review;
  }
  app.removeAttribute('aria-busy');
  draw();
});
send({ type: 'ready' });
