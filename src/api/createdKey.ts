// A create-key response read so that its one-time secret is never lost: the secret is the only member
// that must be usable; every other member is checked, and one that fails is replaced from the request
// the service answered (or left out) and reported as an oddity instead of failing the call.
import type * as z from 'zod';
import type { FieldProblem } from './errors';
import {
  ApiKeyLinks,
  ApiKeyPermissions,
  ApiKeyRelationships,
  ApiKeyTimestamps,
  CreatedApiKeyDocument,
  type CreateApiKeyRequest,
} from './schemas';
import { issuesToProblems, readTolerantly } from './validation';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function usable<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const r = readTolerantly(schema, value);
  return r.success ? r.data : undefined;
}

/**
 * The created key as a document: checked in full when it can be, else rebuilt member by member around
 * `secret` (already known to be a non-empty string), with every failed check as an oddity.
 */
export function readCreatedKey(
  raw: unknown,
  sent: CreateApiKeyRequest,
  secret: string,
): { document: CreatedApiKeyDocument; oddities?: FieldProblem[] } {
  const full = readTolerantly(CreatedApiKeyDocument, raw);
  if (full.success) return { document: full.data };
  const data = isRecord(raw) && isRecord(raw.data) ? raw.data : {};
  const attrs = isRecord(data.attributes) ? data.attributes : {};
  const asked = sent.data.attributes;
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const document: CreatedApiKeyDocument = {
    ...(isRecord(raw) ? raw : {}),
    data: {
      ...data,
      // An empty id tells the caller the service named none; the secret is shown all the same.
      id: text(data.id) ?? '',
      type: 'api-keys',
      attributes: {
        ...attrs,
        secret,
        key_type: text(attrs.key_type) ?? asked.key_type,
        name: typeof attrs.name === 'string' ? attrs.name : asked.name,
        disabled: typeof attrs.disabled === 'boolean' ? attrs.disabled : (asked.disabled ?? false),
        permissions: usable(ApiKeyPermissions, attrs.permissions) ?? asked.permissions,
        timestamps: usable(ApiKeyTimestamps, attrs.timestamps),
      },
      relationships: usable(ApiKeyRelationships, data.relationships),
      links: usable(ApiKeyLinks, data.links),
    },
  };
  return {
    document,
    oddities: issuesToProblems(full.error.issues).map((p) => ({
      ...p,
      field: p.field === '(body)' ? '(root)' : p.field,
    })),
  };
}
