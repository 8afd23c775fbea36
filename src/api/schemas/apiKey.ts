import * as z from 'zod';
import { DateTime } from './common';

// Spec 2.1, 4.1, 4.2: version 2, JSON:API documents of type `api-keys`.

export const API_KEY_TYPE = 'api-keys';
export const KEY_TYPES = ['ingest'] as const;

const Ref = <T extends string>(type: T) => z.looseObject({ id: z.string(), type: z.literal(type) });

export const ApiKeyPermissions = z.looseObject({ create_datasets: z.boolean() });

export const ApiKeyTimestamps = z.looseObject({ created: DateTime, updated: DateTime });

export const ApiKeyAttributes = z.looseObject({
  key_type: z.string(),
  name: z.string(),
  secret: z.string().optional(),
  disabled: z.boolean(),
  permissions: ApiKeyPermissions.optional(),
  timestamps: ApiKeyTimestamps.optional(),
});

export const ApiKey = z.looseObject({
  id: z.string().min(1),
  type: z.literal(API_KEY_TYPE),
  attributes: ApiKeyAttributes,
  relationships: z
    .looseObject({
      environment: z.looseObject({ data: Ref('environments') }).optional(),
      creator: z.looseObject({ data: Ref('users') }).optional(),
      editor: z.looseObject({ data: Ref('users') }).optional(),
    })
    .optional(),
  links: z.looseObject({ self: z.string() }).optional(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** 4.1 response: the only place the secret is ever delivered. */
export const CreatedApiKeyDocument = z.looseObject({
  data: ApiKey.extend({
    attributes: ApiKeyAttributes.extend({ secret: z.string().min(1) }),
  }),
});
export type CreatedApiKeyDocument = z.infer<typeof CreatedApiKeyDocument>;

/** 4.2 response: no secret, no relationships. */
export const UpdatedApiKeyDocument = z.looseObject({ data: ApiKey });
export type UpdatedApiKeyDocument = z.infer<typeof UpdatedApiKeyDocument>;

// The spec gives no length limit; an empty name is refused because it cannot be told apart in any list.
export const ApiKeyName = z.string().refine((s) => s.trim().length > 0, { message: 'name must not be empty' });

/** 4.1 request body. */
export const CreateApiKeyRequest = z.strictObject({
  data: z.strictObject({
    type: z.literal(API_KEY_TYPE),
    attributes: z.strictObject({
      key_type: z.enum(KEY_TYPES),
      name: ApiKeyName,
      disabled: z.boolean(),
      permissions: z.strictObject({ create_datasets: z.boolean() }),
    }),
    relationships: z.strictObject({
      environment: z.strictObject({
        data: z.strictObject({ id: z.string().min(1, 'environment id must not be empty'), type: z.literal('environments') }),
      }),
    }),
  }),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

/** 4.2 request body (the ingest-key variant, the only one shown). */
export const UpdateApiKeyRequest = z.strictObject({
  data: z.strictObject({
    id: z.string().min(1, 'key id must not be empty'),
    type: z.literal(API_KEY_TYPE),
    attributes: z.strictObject({ name: ApiKeyName, disabled: z.boolean() }),
  }),
});
export type UpdateApiKeyRequest = z.infer<typeof UpdateApiKeyRequest>;
