import { randomBytes } from 'node:crypto';
import { ApiKeyCreateBody, ApiKeyUpdateBody } from './requests';
import { param, type HandlerContext, type Route } from './router';
import { json, jsonApi, jsonApiError, MEDIA, v2ValidationFailure, type JsonApiError, type Reply } from './responses';
import { API_KEY_TYPE } from './spec';
import { takeId, type ApiKeyRecord } from './state';

// Version 2 (management key, JSON:API) endpoints of spec part 4: 4.1 and 4.2.

function selfLink(team: string, id: string): string {
  return `/2/teams/${encodeURIComponent(team)}/api-keys/${encodeURIComponent(id)}`;
}

function attributes(key: ApiKeyRecord): Record<string, unknown> {
  return {
    key_type: key.key_type,
    name: key.name,
    disabled: key.disabled,
    permissions: key.permissions,
    timestamps: { created: key.created, updated: key.updated },
  };
}

function notFound(detail: string, source: JsonApiError['source']): Reply {
  return jsonApi(404, [jsonApiError(404, detail, source)]);
}

function teamOf(ctx: HandlerContext): Reply | undefined {
  const team = param(ctx, 'team');
  return team === ctx.state.team ? undefined : notFound(`team "${team}" not found`, { parameter: 'team_slug' });
}

/**
 * A sandbox choice (the spec does not say): two live (enabled) keys of a team may not share a name, so a
 * blind retry of a create that did succeed answers 409 instead of making a second key.
 */
function nameTaken(keys: readonly ApiKeyRecord[], name: string, exceptId?: string): boolean {
  return keys.some((k) => !k.disabled && k.name === name && k.id !== exceptId);
}

function conflict(detail: string, pointer: string, code = 'conflict/already-exists'): Reply {
  return jsonApi(409, [jsonApiError(409, detail, { pointer }, code)]);
}

function createApiKey(ctx: HandlerContext): Reply {
  const wrongTeam = teamOf(ctx);
  if (wrongTeam) return wrongTeam;
  const parsed = ApiKeyCreateBody.safeParse(ctx.body);
  if (!parsed.success) return v2ValidationFailure(parsed.error.issues, ctx.body);
  const { attributes: attrs, relationships } = parsed.data.data;
  const environmentId = relationships.environment.data.id;
  if (environmentId !== ctx.state.environmentId) {
    return notFound(`environment "${environmentId}" not found`, { pointer: '/data/relationships/environment/data/id' });
  }
  if (attrs.disabled !== true && nameTaken(ctx.state.apiKeys, attrs.name)) {
    return conflict(`a live API key named "${attrs.name}" already exists`, '/data/attributes/name');
  }
  const now = ctx.now().toISOString();
  const key: ApiKeyRecord = {
    id: takeId(ctx.state, 'hcxik_'),
    key_type: attrs.key_type,
    name: attrs.name,
    // Both may be left out: the service defaults them (service facts).
    disabled: attrs.disabled ?? false,
    permissions: attrs.permissions ?? (attrs.key_type === 'ingest' ? { create_datasets: false } : {}),
    environment_id: environmentId,
    creator_id: ctx.state.userId,
    editor_id: ctx.state.userId,
    created: now,
    updated: now,
  };
  ctx.state.apiKeys.push(key);
  // The secret exists only in this response: it is not stored anywhere.
  const secret = randomBytes(16).toString('hex');
  const self = selfLink(ctx.state.team, key.id);
  return json(
    201,
    {
      data: {
        id: key.id,
        type: API_KEY_TYPE,
        attributes: { ...attributes(key), secret },
        relationships: {
          environment: { data: { id: key.environment_id, type: 'environments' } },
          creator: { data: { id: key.creator_id, type: 'users' } },
          editor: { data: { id: key.editor_id, type: 'users' } },
        },
        links: { self },
      },
    },
    MEDIA.jsonApi,
    { Location: `${ctx.baseUrl}${self}` },
  );
}

function updateApiKey(ctx: HandlerContext): Reply {
  const wrongTeam = teamOf(ctx);
  if (wrongTeam) return wrongTeam;
  const id = param(ctx, 'id');
  const key = ctx.state.apiKeys.find((k) => k.id === id);
  if (!key) return notFound(`API key "${id}" not found`, { parameter: 'ID' });
  const parsed = ApiKeyUpdateBody.safeParse(ctx.body);
  if (!parsed.success) return v2ValidationFailure(parsed.error.issues, ctx.body);
  const { data } = parsed.data;
  if (data.id !== id) {
    return conflict(
      `data.id "${data.id}" does not match the key in the path ("${id}")`,
      '/data/id',
      'conflict/id-mismatch',
    );
  }
  // A PATCH changes what it gives (spec part 3: "attributes.disabled given").
  const name = data.attributes?.name ?? key.name;
  const disabled = data.attributes?.disabled ?? key.disabled;
  if (!disabled && nameTaken(ctx.state.apiKeys, name, id)) {
    return conflict(`a live API key named "${name}" already exists`, '/data/attributes/name');
  }
  key.name = name;
  key.disabled = disabled;
  key.editor_id = ctx.state.userId;
  key.updated = ctx.now().toISOString();
  return json(
    200,
    {
      data: {
        id: key.id,
        type: API_KEY_TYPE,
        attributes: attributes(key),
        links: { self: selfLink(ctx.state.team, key.id) },
      },
    },
    MEDIA.jsonApi,
  );
}

export const V2_ROUTES: Route[] = [
  {
    method: 'POST',
    pattern: ['2', 'teams', ':team', 'api-keys'],
    api: 'v2',
    body: true,
    handler: createApiKey,
    changes: [],
  },
  {
    method: 'PATCH',
    pattern: ['2', 'teams', ':team', 'api-keys', ':id'],
    api: 'v2',
    body: true,
    handler: updateApiKey,
    changes: [],
  },
];
