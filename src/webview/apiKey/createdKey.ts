// The API key form's view of a key just created: its name, its id and the secret, shown once, with the
// buttons that copy them. The secret lives only in this view and the host's memory, never in the page's state.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { ApiKeyFromWebview } from '../protocol/messages';
import { API_KEY_TEXT } from '../protocol/text/apiKeyForm';
import { post } from '../shared/vscodeApi';

export interface CreatedKey {
  id: string;
  name: string;
  secret: string | undefined;
}

const send = (m: ApiKeyFromWebview): void => post(m);

/**
 * The secret, shown once. `notes` say what was odd in the service's answer; an empty id means the service
 * gave none. `statusLine`: the form's status line, which the view ends with.
 */
export function createdPage(key: CreatedKey, notes: readonly string[], statusLine: TemplateResult): TemplateResult {
  const C = API_KEY_TEXT.created;
  return html`<h1>${C.title}</h1>
    <dl class="facts">
      <dt>${C.name}</dt><dd id="created-name">${key.name}</dd>
      <dt>${C.id}</dt><dd id="created-id">${key.id === '' ? C.noId : key.id}</dd>
    </dl>
    ${notes.length === 0 ? nothing : html`<ul class="warning" id="created-notes">${notes.map((n) => html`<li>${n}</li>`)}</ul>`}
    ${key.secret === undefined ? html`<p class="warning" id="secret-gone">${C.gone}</p>` : secretBlock(key.secret, key.id !== '')}
    <div class="actions">
      <vscode-button id="create-another" secondary @click=${() => send({ type: 'createAnother' })}>${C.another}</vscode-button>
      <vscode-button id="close" secondary @click=${() => send({ type: 'close' })}>${C.close}</vscode-button>
    </div>
    ${statusLine}`;
}

/** The secret with its copy buttons; without the key's id only the secret can be copied. */
function secretBlock(secret: string, withId: boolean): TemplateResult {
  const C = API_KEY_TEXT.created;
  const copyBoth = html`<vscode-button id="copy-both" @click=${() => send({ type: 'copy', what: 'idAndSecret' })}>${C.copyBoth}</vscode-button>`;
  return html`<p class="warning" id="secret-warning" role="alert">${C.copyNow}</p>
    <div class="field">
      <div class="label" id="secret-label">${C.secret}</div>
      <code id="secret" class="secret" aria-labelledby="secret-label">${secret}</code>
    </div>
    <div class="actions">
      ${withId ? copyBoth : nothing}
      <vscode-button id="copy-secret" secondary @click=${() => send({ type: 'copy', what: 'secret' })}>${C.copySecret}</vscode-button>
    </div>`;
}
