// What an answer never shows of a trigger: the values of its webhook variables. A team may keep a token in
// one (a header, say), and an answer goes to a model. The names stay, so an answer still says which variable
// a trigger sets or a change touches.
import type { Difference } from '../triggerFiles';

const NOT_SHOWN = '(not shown)';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value with the values of webhook variables (a `variables` list's `value`s, at any depth) replaced. */
export function withoutVariableValues(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutVariableValues);
  if (!isRecord(v)) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, inner]) =>
      k === 'variables' && Array.isArray(inner)
        ? [k, inner.map((x: unknown) => (isRecord(x) && 'value' in x ? { ...x, value: NOT_SHOWN } : x))]
        : [k, withoutVariableValues(inner)],
    ),
  );
}

/** `recipients[0].details.variables[1].value`: a variable's value on its own. */
const VARIABLE_VALUE = /(^|\.)variables\[\d+\]\.value$/;

/** A difference as an answer may show it: a variable's value, alone or within its recipient, not shown. */
export function shownDifference(d: Difference): Difference {
  if (VARIABLE_VALUE.test(d.path))
    return {
      ...d,
      service: d.service === undefined ? undefined : NOT_SHOWN,
      local: d.local === undefined ? undefined : NOT_SHOWN,
    };
  return d.member === 'recipients'
    ? { ...d, service: withoutVariableValues(d.service), local: withoutVariableValues(d.local) }
    : d;
}
