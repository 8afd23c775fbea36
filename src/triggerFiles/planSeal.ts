// The seal of a saved plan (`obs plan --out`): what lets `obs apply` tell the plan as it was saved from one edited
// since. No vscode import.
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The seal of a saved plan's text: an HMAC-SHA256 keyed with the configuration key. Whoever edits a saved
 * plan without the key cannot seal it again, so `obs apply` can tell the plan as `obs plan` saved it.
 */
export function planSeal(text: string, key: string): string {
  return createHmac('sha256', `obs-trigger-plan\u0000${key}`).update(text, 'utf8').digest('hex');
}

export function sealMatches(text: string, key: string, seal: string): boolean {
  const expected = Buffer.from(planSeal(text, key), 'hex');
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(seal) ? seal : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
