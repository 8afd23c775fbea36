// One entry per endpoint of spec part 4: its operation name (for messages), method, version (auth and
// media type), retry policy and response schema.
import * as z from 'zod';
import type { RetryPolicy } from './retry';
import type { Method } from './transport';
import {
  AccountRecipientList,
  BurnAlert,
  BurnAlertList,
  Column,
  ColumnList,
  CreatedApiKeySecret,
  DatasetDefinitions,
  DatasetList,
  QueryAnnotationList,
  QueryResult,
  SavedQuery,
  SloList,
  Trigger,
  TriggerList,
  UpdatedApiKeyDocument,
} from './schemas';

export interface Endpoint<T> {
  operation: string;
  method: Method;
  version: 1 | 2;
  /** Shown in response-schema errors so the endpoint is named. */
  route: string;
  retry: RetryPolicy;
  response: z.ZodType<T>;
  /** The service answers success with no body (204): the call's data is undefined, never parsed. */
  emptyResponse?: true;
  /**
   * Said on a failure after which the service may have carried the call out anyway (a lost, cut-off or
   * unreadable answer, a 5xx, once any retries are spent): the caller should look before repeating it.
   */
  unknownOutcomeNote?: string;
}

const endpoint = <T>(e: Endpoint<T>): Endpoint<T> => e;

export const ENDPOINTS = {
  createApiKey: endpoint({
    operation: 'create API key',
    method: 'POST',
    version: 2,
    route: 'POST /2/teams/{team}/api-keys',
    retry: 'never',
    response: CreatedApiKeySecret,
    unknownOutcomeNote: "the key may have been created anyway: check the team's API keys before creating it again",
  }),
  updateApiKey: endpoint({
    operation: 'update API key',
    method: 'PATCH',
    version: 2,
    route: 'PATCH /2/teams/{team}/api-keys/{id}',
    retry: 'idempotent',
    response: UpdatedApiKeyDocument,
  }),
  listBurnAlerts: endpoint({
    operation: 'list burn alerts',
    method: 'GET',
    version: 1,
    route: 'GET /1/burn_alerts/{dataset}?slo_id=',
    retry: 'idempotent',
    response: BurnAlertList,
  }),
  // Beyond the spec (service facts): one alert with everything the list leaves out, recipients included.
  getBurnAlert: endpoint({
    operation: 'get burn alert',
    method: 'GET',
    version: 1,
    route: 'GET /1/burn_alerts/{dataset}/{id}',
    retry: 'idempotent',
    response: BurnAlert,
  }),
  updateBurnAlert: endpoint({
    operation: 'update burn alert',
    method: 'PUT',
    version: 1,
    route: 'PUT /1/burn_alerts/{dataset}/{id}',
    retry: 'idempotent',
    response: BurnAlert,
  }),
  createQueryResult: endpoint({
    operation: 'create query result',
    method: 'POST',
    version: 1,
    route: 'POST /1/query_results/{dataset}',
    retry: 'unprocessed-only',
    response: QueryResult,
  }),
  // Beyond the spec's eight (service facts): saved queries and polling a query result.
  createQuery: endpoint({
    operation: 'save query',
    method: 'POST',
    version: 1,
    route: 'POST /1/queries/{dataset}',
    retry: 'unprocessed-only',
    response: SavedQuery,
  }),
  getQuery: endpoint({
    operation: 'read saved query',
    method: 'GET',
    version: 1,
    route: 'GET /1/queries/{dataset}/{id}',
    retry: 'idempotent',
    response: SavedQuery,
  }),
  getQueryResult: endpoint({
    operation: 'read query result',
    method: 'GET',
    version: 1,
    route: 'GET /1/query_results/{dataset}/{id}',
    retry: 'idempotent',
    response: QueryResult,
  }),
  listColumns: endpoint({
    operation: 'list columns',
    method: 'GET',
    version: 1,
    route: 'GET /1/columns/{dataset}',
    retry: 'idempotent',
    response: ColumnList,
  }),
  getColumn: endpoint({
    operation: 'get column',
    method: 'GET',
    version: 1,
    route: 'GET /1/columns/{dataset}?key_name=',
    retry: 'idempotent',
    response: Column,
  }),
  listTriggers: endpoint({
    operation: 'list triggers',
    method: 'GET',
    version: 1,
    route: 'GET /1/triggers/{dataset}',
    retry: 'idempotent',
    response: TriggerList,
  }),
  // Writing triggers, beyond the spec's eight (service facts). A create is retried only when the service
  // certainly did not get it; after an unknown outcome the client looks for it before trying again.
  getTrigger: endpoint({
    operation: 'read trigger',
    method: 'GET',
    version: 1,
    route: 'GET /1/triggers/{dataset}/{id}',
    retry: 'idempotent',
    response: Trigger,
  }),
  createTrigger: endpoint({
    operation: 'create trigger',
    method: 'POST',
    version: 1,
    route: 'POST /1/triggers/{dataset}',
    retry: 'unprocessed-only',
    response: Trigger,
    unknownOutcomeNote:
      "the trigger may have been created anyway: check the dataset's triggers before creating it again",
  }),
  // A PUT is idempotent, but the service has no conditional write: sent again after a lost answer, it would
  // overwrite a change someone made in between. So it is repeated only when it surely was not taken; the
  // caller reads the trigger before sending it again (triggerFiles/apply.ts).
  replaceTrigger: endpoint({
    operation: 'update trigger',
    method: 'PUT',
    version: 1,
    route: 'PUT /1/triggers/{dataset}/{id}',
    retry: 'unprocessed-only',
    response: Trigger,
    unknownOutcomeNote: 'the trigger may have been replaced anyway: read it before writing it again',
  }),
  deleteTrigger: endpoint({
    operation: 'delete trigger',
    method: 'DELETE',
    version: 1,
    route: 'DELETE /1/triggers/{dataset}/{id}',
    retry: 'idempotent',
    response: z.undefined(),
    emptyResponse: true,
    unknownOutcomeNote: 'the trigger may have been deleted anyway: plan again to see',
  }),
  // What the account holds, beyond the spec's eight (service facts).
  listDatasets: endpoint({
    operation: 'list datasets',
    method: 'GET',
    version: 1,
    route: 'GET /1/datasets',
    retry: 'idempotent',
    response: DatasetList,
  }),
  listSlos: endpoint({
    operation: 'list SLOs',
    method: 'GET',
    version: 1,
    route: 'GET /1/slos/{dataset}',
    retry: 'idempotent',
    response: SloList,
  }),
  listRecipients: endpoint({
    operation: 'list recipients',
    method: 'GET',
    version: 1,
    route: 'GET /1/recipients',
    retry: 'idempotent',
    response: AccountRecipientList,
  }),
  listQueryAnnotations: endpoint({
    operation: 'list saved queries',
    method: 'GET',
    version: 1,
    route: 'GET /1/query_annotations/{dataset}',
    retry: 'idempotent',
    response: QueryAnnotationList,
  }),
  updateDatasetDefinitions: endpoint({
    operation: 'update dataset definitions',
    method: 'PATCH',
    version: 1,
    route: 'PATCH /1/dataset_definitions/{dataset}',
    retry: 'idempotent',
    response: DatasetDefinitions,
  }),
} as const;

export const MEDIA_TYPE = { 1: 'application/json', 2: 'application/vnd.api+json' } as const;
