import * as z from 'zod';
import { DateTime } from './common';

// What an account holds, beyond the spec's eight calls (service facts, "Reading what the account holds"):
// datasets, SLOs, recipients and named saved queries. Read tolerantly: unknown members kept, null read as
// absent, only what a row cannot do without required.

/** `GET /1/datasets`: one dataset of the environment. */
export const Dataset = z.looseObject({
  slug: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  expand_json_depth: z.number().optional(),
  created_at: DateTime.optional(),
  /** Null until data arrives (read as absent). */
  last_written_at: DateTime.optional(),
  /** Null until columns exist (read as absent). */
  regular_columns_count: z.number().optional(),
  settings: z.looseObject({ delete_protected: z.boolean().optional() }).optional(),
});
export type Dataset = z.infer<typeof Dataset>;
export const DatasetList = z.array(Dataset);

/** `GET /1/slos/<dataset>`: one SLO; its id is the `slo_id` of the burn alert list. */
export const Slo = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  sli: z.looseObject({ alias: z.string().optional() }).optional(),
  time_period_days: z.number().optional(),
  /** 0..999999: 999000 is 99.9%. */
  target_per_million: z.number().optional(),
  tags: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  reset_at: DateTime.optional(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
  dataset_slugs: z.array(z.string()).optional(),
});
export type Slo = z.infer<typeof Slo>;
export const SloList = z.array(Slo);

/**
 * The details of a recipient that tell it apart. Only these are read: integration keys, webhook URLs,
 * secrets, headers and payload templates are credentials of the user's team, and a member the service adds
 * later may be one too, so everything else in `details` is dropped here, before anything can show, log
 * or store it.
 */
export const RecipientNaming = z.object({
  email_address: z.string().optional(),
  slack_channel: z.string().optional(),
  pagerduty_integration_name: z.string().optional(),
  webhook_name: z.string().optional(),
});
export type RecipientNaming = z.infer<typeof RecipientNaming>;

/** The members of a listed recipient that are kept: no other member of the service's reaches the caller. */
export const AccountRecipient = z.object({
  id: z.string().min(1),
  /** pagerduty, email, slack, webhook, msteams (deprecated), msteams_workflow, or a type added later (kept as it is). */
  type: z.string().optional(),
  details: RecipientNaming.optional(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
});
export type AccountRecipient = z.infer<typeof AccountRecipient>;
export const AccountRecipientList = z.array(AccountRecipient);

/** `GET /1/query_annotations/<dataset>`: a named saved query (a query id may carry several, most carry none). */
export const QueryAnnotation = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  query_id: z.string().min(1),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
  source: z.string().optional(),
});
export type QueryAnnotation = z.infer<typeof QueryAnnotation>;
export const QueryAnnotationList = z.array(QueryAnnotation);
