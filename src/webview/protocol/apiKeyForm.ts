// Create (4.1) and update (4.2) API key forms: the values a form holds, the request they make and where
// a problem with the request lands. The rules are the request schemas' (src/api/schemas/apiKey.ts).
// No vscode import: the webview script validates with the same functions while the user types.
import * as z from 'zod';
import { API_KEY_TYPE, CreateApiKeyRequest, KEY_TYPES, UpdateApiKeyRequest } from '../../api/schemas/apiKey';
import { noProblems, problemsFromZod, tableResolver, type FormProblems } from './problems';
import { API_KEY_TEXT } from './text/apiKeyForm';
import { COMMON_TEXT } from './text/common';
import type { FormWording } from './wording';
import type { Outcome } from '../../result';

/** What the create form holds. Only types are checked here; the rules come from CreateApiKeyRequest. */
export const CreateApiKeyValues = z.strictObject({
  name: z.string(),
  keyType: z.enum(KEY_TYPES),
  disabled: z.boolean(),
  createDatasets: z.boolean(),
  environmentId: z.string(),
});
export type CreateApiKeyValues = z.infer<typeof CreateApiKeyValues>;

/** What the update form holds. */
export const UpdateApiKeyValues = z.strictObject({
  id: z.string(),
  name: z.string(),
  disabled: z.boolean(),
});
export type UpdateApiKeyValues = z.infer<typeof UpdateApiKeyValues>;

export function defaultCreateValues(environmentId: string): CreateApiKeyValues {
  return { name: '', keyType: 'ingest', disabled: false, createDatasets: false, environmentId };
}

export function createApiKeyBody(v: CreateApiKeyValues): CreateApiKeyRequest {
  return {
    data: {
      type: API_KEY_TYPE,
      attributes: {
        key_type: v.keyType,
        name: v.name,
        disabled: v.disabled,
        permissions: { create_datasets: v.createDatasets },
      },
      relationships: { environment: { data: { id: v.environmentId, type: 'environments' } } },
    },
  };
}

function updateApiKeyBody(v: UpdateApiKeyValues): UpdateApiKeyRequest {
  return { data: { id: v.id, type: API_KEY_TYPE, attributes: { name: v.name, disabled: v.disabled } } };
}

/**
 * The update form's unsaved values as one sentence (`name = "ingest (old)", disabled = true`), or
 * undefined when there are none: shown when a form restored after a window reload cannot reach its
 * connection. `known` is the key as last known (remembered by this extension); without it every value
 * that differs from an empty form counts. The update form holds no secret, so none can appear here.
 */
export function describeUnsavedApiKeyUpdate(
  values: UpdateApiKeyValues,
  known: UpdateApiKeyValues | undefined,
): string | undefined {
  const base: UpdateApiKeyValues = known ?? { id: '', name: '', disabled: false };
  const changes: string[] = [];
  if (values.id !== base.id) changes.push(`id = ${JSON.stringify(values.id)}`);
  if (values.name !== base.name) changes.push(`name = ${JSON.stringify(values.name)}`);
  if (values.disabled !== base.disabled) changes.push(`disabled = ${String(values.disabled)}`);
  return changes.length === 0 ? undefined : COMMON_TEXT.unsavedChanges(changes);
}

/** Request paths (and the bare names a service reports) to form field ids. */
export const resolveApiKeyField = tableResolver({
  'data.id': 'id',
  'data.attributes.key_type': 'keyType',
  'data.attributes.name': 'name',
  'data.attributes.disabled': 'disabled',
  'data.attributes.permissions': 'createDatasets',
  'data.relationships.environment': 'environmentId',
});

/** How the API key forms word their problems. */
const API_KEY_WORDING: FormWording = {
  get labels() {
    return API_KEY_TEXT.labels;
  },
};

export type Checked<T> = Outcome<{ body: T }, FormProblems>;

/**
 * The form asks for a name, which the service does not: a key without one cannot be told apart in any
 * list. Everything else is the request schema's.
 */
const nameGiven = (name: string, ctx: z.RefinementCtx) => {
  if (name.trim() === '')
    ctx.addIssue({
      code: 'custom',
      path: ['data', 'attributes', 'name'],
      params: { rule: 'required' },
      message: API_KEY_TEXT.nameRequired,
    });
};
const CreateFormRequest = CreateApiKeyRequest.superRefine((b, ctx) => nameGiven(b.data.attributes.name, ctx));
const UpdateFormRequest = UpdateApiKeyRequest.superRefine((b, ctx) => nameGiven(b.data.attributes.name ?? '', ctx));

export function checkCreateApiKey(v: CreateApiKeyValues): Checked<CreateApiKeyRequest> {
  const parsed = CreateFormRequest.safeParse(createApiKeyBody(v));
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, reason: problemsFromZod(parsed.error, resolveApiKeyField, API_KEY_WORDING) };
}

export function checkUpdateApiKey(v: UpdateApiKeyValues): Checked<UpdateApiKeyRequest> {
  const parsed = UpdateFormRequest.safeParse(updateApiKeyBody(v));
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, reason: problemsFromZod(parsed.error, resolveApiKeyField, API_KEY_WORDING) };
}

/** Problems of the values as the user types (empty when the request would be accepted). */
export function createApiKeyProblems(v: CreateApiKeyValues): FormProblems {
  const checked = checkCreateApiKey(v);
  return checked.ok ? noProblems() : checked.reason;
}

export function updateApiKeyProblems(v: UpdateApiKeyValues): FormProblems {
  const checked = checkUpdateApiKey(v);
  return checked.ok ? noProblems() : checked.reason;
}

/** The two texts a user can copy after a create: `id:secret` (the Bearer form of spec 5) and the secret. */
export const COPY_WHATS = ['idAndSecret', 'secret'] as const;
export type CopyWhat = (typeof COPY_WHATS)[number];

export function copyText(what: CopyWhat, key: { id: string; secret: string }): string {
  return what === 'idAndSecret' ? `${key.id}:${key.secret}` : key.secret;
}
