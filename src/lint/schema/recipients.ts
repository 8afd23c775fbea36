// A recipient in a trigger write: the client's recipient (spec 2.3: named by id, or by type and target)
// with what the service refuses in a trigger's recipients beyond it (service facts).
import * as l10n from '@vscode/l10n';
import * as z from 'zod';
import { RecipientDetails, RecipientVariable, RecipientWrite } from '../../api/schemas/common';
import { PAGERDUTY_SEVERITIES, RECIPIENT_TYPES, TRIGGER_LIMITS, WEBHOOK_VARIABLE_NAME_PATTERN } from './limits';
import { member, oneOf, says, type Words } from './wording';

const variableName: Words = () => l10n.t('variable name');
const variableNameAllowed: Words = () => l10n.t('a lowercase letter a-z, then only letters a-z, A-Z and digits');
const variableValue: Words = () => l10n.t('variable value');
const variableValueAllowed: Words = () =>
  l10n.t('a string of at most {0} characters', TRIGGER_LIMITS.webhookVariableValueMax);
const VariableWrite = RecipientVariable.extend({
  name: z
    .string(says(variableName, variableNameAllowed))
    .regex(WEBHOOK_VARIABLE_NAME_PATTERN, says(variableName, variableNameAllowed))
    .describe('Name of a webhook template variable: a lowercase letter, then letters and digits.'),
  value: z
    .string(says(variableValue, variableValueAllowed))
    .max(TRIGGER_LIMITS.webhookVariableValueMax, says(variableValue, variableValueAllowed))
    .describe(`Value of the variable for this trigger: at most ${TRIGGER_LIMITS.webhookVariableValueMax} characters.`),
});

const DetailsWrite = RecipientDetails.extend({
  pagerduty_severity: z
    .enum(PAGERDUTY_SEVERITIES, says(member('pagerduty_severity'), oneOf(PAGERDUTY_SEVERITIES)))
    .optional()
    .describe('Severity of the PagerDuty incident; the service takes critical when it is left out.'),
  variables: z.array(VariableWrite).optional().describe("A webhook's template variables, each a name and a value."),
}).describe('Extra delivery settings: pagerduty_severity and variables.');

export const TriggerRecipientWrite = RecipientWrite.safeExtend({
  type: z
    .enum(
      RECIPIENT_TYPES,
      says(() => l10n.t('recipient type'), oneOf(RECIPIENT_TYPES)),
    )
    .optional()
    .describe('How the recipient is notified; marker adds a marker instead. With an id the service fills it in.'),
  details: DetailsWrite.optional(),
});
