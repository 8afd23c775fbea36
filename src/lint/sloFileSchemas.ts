// The JSON Schemas of burn alert files and dataset definitions files (docs/SLO-FILES.md), generated like the
// trigger schema: schemas/burn-alert.schema.json and schemas/definitions.schema.json in full, and their
// editor versions (completion and hover only: obs-lint reports each problem once, with its rule).
import * as z from 'zod';
import { BURN_ALERT_LIMITS, BURN_ALERT_TYPES } from '../api/schemas/burnAlert';
import { DEFINITION_TYPES, DEFINITION_TYPE_NAMES, type DefinitionType } from '../api/schemas/definitionTypes';
import { editorSchemaFrom } from './editorSchema';
import { RecipientWrite } from '../api/schemas/common';

export const BURN_ALERT_SCHEMA_PATH = 'schemas/burn-alert.schema.json';
export const BURN_ALERT_EDITOR_SCHEMA_PATH = 'schemas/burn-alert.editor.schema.json';
export const DEFINITIONS_SCHEMA_PATH = 'schemas/definitions.schema.json';
export const DEFINITIONS_EDITOR_SCHEMA_PATH = 'schemas/definitions.editor.schema.json';

const BurnAlertFile = z
  .strictObject({
    id: z.string().min(1).describe("The burn alert's id on the service: it links the file to the alert."),
    dataset_slug: z.string().min(1).describe("The dataset of the alert's SLO, or __all__ for an environment-wide SLO."),
    slo: z
      .strictObject({
        id: z.string().min(1).describe("The SLO's id on the service."),
        name: z.string().describe("The SLO's name, for whoever reads the file (the alert is matched by id)."),
      })
      .describe('The SLO the alert belongs to.'),
    alert_type: z
      .enum(BURN_ALERT_TYPES)
      .describe(
        'exhaustion_time: fires when the budget is projected to run out within exhaustion_minutes. budget_rate: fires when the budget drops by the threshold within the window.',
      ),
    exhaustion_minutes: z
      .number()
      .int()
      .min(BURN_ALERT_LIMITS.exhaustionMinutesMin)
      .optional()
      .describe('Minutes left until the budget runs out: 0 or more. Only for exhaustion_time, and required there.'),
    budget_rate_window_minutes: z
      .number()
      .int()
      .min(BURN_ALERT_LIMITS.budgetRateWindowMinutesMin)
      .optional()
      .describe(
        "The window, in minutes: at least 60, at most the SLO's period. Only for budget_rate, and required there.",
      ),
    budget_rate_decrease_threshold_per_million: z
      .number()
      .int()
      .min(BURN_ALERT_LIMITS.budgetRateThresholdMin)
      .max(BURN_ALERT_LIMITS.budgetRateThresholdMax)
      .optional()
      .describe(
        'How much of the budget must go within the window, per million (10000 is 1%): 1 to 1000000. Only for budget_rate, and required there.',
      ),
    description: z
      .string()
      .max(BURN_ALERT_LIMITS.descriptionMax)
      .optional()
      .describe(`At most ${BURN_ALERT_LIMITS.descriptionMax} characters; left out, it is empty.`),
    recipients: z
      .array(RecipientWrite)
      .min(BURN_ALERT_LIMITS.recipientsMin)
      .describe('Who is notified: at least one recipient, each named by id.'),
  })
  .meta({
    title: 'Burn alert file',
    description: 'One burn alert of an SLO, as obs pull writes it (docs/SLO-FILES.md). Checked by obs-lint.',
  });

const ColumnRefFile = z
  .strictObject({ name: z.string().describe('The column (or derived column) of the dataset; "" clears it.') })
  .nullable();

const definitionShape = Object.fromEntries(
  DEFINITION_TYPE_NAMES.map((t) => [t, ColumnRefFile.optional().describe(`${DEFINITION_TYPES[t]} null: unset.`)]),
) as Record<DefinitionType, z.ZodOptional<typeof ColumnRefFile>>;

const DefinitionsFile = z
  .strictObject({
    dataset_slug: z.string().min(1).describe('The dataset whose definitions the file holds.'),
    definitions: z.strictObject(definitionShape).describe('Which column carries each meaning; null where none does.'),
  })
  .meta({
    title: 'Dataset definitions file',
    description: "One dataset's definitions, as obs pull writes it (docs/SLO-FILES.md). Checked by obs-lint.",
  });

const schemaText = (schema: z.ZodType): string =>
  `${JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-07' }), null, 2)}\n`;

export const burnAlertJsonSchemaText = (): string => schemaText(BurnAlertFile);
export const definitionsJsonSchemaText = (): string => schemaText(DefinitionsFile);

export const burnAlertEditorSchemaText = (): string =>
  editorSchemaFrom(
    burnAlertJsonSchemaText(),
    `Completion and hover for burn alert files (generated from ${BURN_ALERT_SCHEMA_PATH} without its validating keywords: obs-lint reports every problem, once).`,
  );

export const definitionsEditorSchemaText = (): string =>
  editorSchemaFrom(
    definitionsJsonSchemaText(),
    `Completion and hover for dataset definitions files (generated from ${DEFINITIONS_SCHEMA_PATH} without its validating keywords: obs-lint reports every problem, once).`,
  );
