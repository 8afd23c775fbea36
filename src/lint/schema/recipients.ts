// A recipient in a trigger write: the client's recipient (spec 2.3: named by id, or by type and target)
// with what the service refuses in a trigger's recipients beyond it (service facts).
import * as l10n from '@vscode/l10n';
import * as z from 'zod';
import { RecipientDetails, RecipientWrite } from '../../api/schemas/common';
import { PAGERDUTY_SEVERITIES, RECIPIENT_TYPES } from './limits';
import { member, oneOf, says } from './wording';

const DetailsWrite = RecipientDetails.extend({
  pagerduty_severity: z
    .enum(PAGERDUTY_SEVERITIES, says(member('pagerduty_severity'), oneOf(PAGERDUTY_SEVERITIES)))
    .optional()
    .describe('Severity of the PagerDuty incident; the service takes critical when it is left out.'),
}).describe('Extra delivery settings: pagerduty_severity and variables.');

export const TriggerRecipientWrite = RecipientWrite.safeExtend({
  type: z
    .enum(RECIPIENT_TYPES, says(() => l10n.t('recipient type'), oneOf(RECIPIENT_TYPES)))
    .optional()
    .describe('How the recipient is notified; marker adds a marker instead. With an id the service fills it in.'),
  details: DetailsWrite.optional(),
});
