import * as z from 'zod';
import { DateTime } from './common';

// Spec 2.1, 4.1, 4.2: version 2, JSON:API documents of type `api-keys`. Read tolerantly (service facts):
// keys of other types (`configuration`) carry other permissions, and a key made by a system actor has
// null creator and editor relationships.

export const API_KEY_TYPE = 'api-keys';
/** The key types the create form offers; the service knows others (`configuration`) and the client sends any. */
export const KEY_TYPES = ['ingest'] as const;

/** A relationship as read: `{data: {id, type}}`, `{data: null}`, or null. */
const Relationship = z.looseObject({ data: z.looseObject({ id: z.string(), type: z.string() }).nullable() }).optional();

/** `create_datasets` is an ingest key's permission; a configuration key's permissions are others. */
export const ApiKeyPermissions = z.looseObject({ create_datasets: z.boolean().optional() });

export const ApiKeyTimestamps = z.looseObject({ created: DateTime.optional(), updated: DateTime.optional() });

export const ApiKeyRelationships = z.looseObject({
  environment: Relationship,
  creator: Relationship,
  editor: Relationship,
});
export const ApiKeyLinks = z.looseObject({ self: z.string().optional() });

const attributesShape = {
  key_type: z.string(),
  name: z.string(),
  secret: z.string().optional(),
  disabled: z.boolean(),
  permissions: ApiKeyPermissions.optional(),
  timestamps: ApiKeyTimestamps.optional(),
};
export const ApiKeyAttributes = z.looseObject(attributesShape);

const keyShape = {
  id: z.string().min(1),
  type: z.literal(API_KEY_TYPE),
  attributes: ApiKeyAttributes,
  relationships: ApiKeyRelationships.optional(),
  links: ApiKeyLinks.optional(),
};
export const ApiKey = z.looseObject(keyShape);
export type ApiKey = z.infer<typeof ApiKey>;

/** 4.1 response: the only place the secret is ever delivered. */
export const CreatedApiKeyDocument = z.looseObject({
  data: z.looseObject({ ...keyShape, attributes: z.looseObject({ ...attributesShape, secret: z.string().min(1) }) }),
});
export type CreatedApiKeyDocument = z.infer<typeof CreatedApiKeyDocument>;

/**
 * What a create response must hold to be usable at all: the one-time secret. Everything else is checked
 * afterwards, and what fails there is reported without withholding the secret (ServiceClient.createApiKey).
 */
export const CreatedApiKeySecret = z.looseObject({
  data: z.looseObject({ attributes: z.looseObject({ secret: z.string().min(1, 'the secret must not be empty') }) }),
});

/** 4.2 response: no secret, no relationships. */
export const UpdatedApiKeyDocument = z.looseObject({ data: ApiKey });
export type UpdatedApiKeyDocument = z.infer<typeof UpdatedApiKeyDocument>;

/**
 * 4.1 request body. Only what the spec and the service facts make the service refuse is refused: the
 * spec sets no rule on the name, key types other than ingest exist, and `disabled` (default false) and
 * `permissions` may be left out (service facts). Other permission names than create_datasets are not
 * shown, so they are passed on.
 */
export const CreateApiKeyRequest = z.strictObject({
  data: z.strictObject({
    type: z.literal(API_KEY_TYPE),
    attributes: z.strictObject({
      key_type: z.string(),
      name: z.string(),
      disabled: z.boolean().optional(),
      permissions: z.looseObject({ create_datasets: z.boolean().optional() }).optional(),
    }),
    relationships: z.strictObject({
      environment: z.strictObject({
        data: z.strictObject({
          id: z.string().min(1, 'environment id must not be empty'),
          type: z.literal('environments'),
        }),
      }),
    }),
  }),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

/** 4.2 request body (the ingest-key variant, the only one shown); a PATCH changes what it gives (spec part 3). */
export const UpdateApiKeyRequest = z.strictObject({
  data: z.strictObject({
    id: z.string().min(1, 'key id must not be empty'),
    type: z.literal(API_KEY_TYPE),
    attributes: z.strictObject({ name: z.string().optional(), disabled: z.boolean().optional() }),
  }),
});
export type UpdateApiKeyRequest = z.infer<typeof UpdateApiKeyRequest>;
