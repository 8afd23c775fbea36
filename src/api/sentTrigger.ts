// Whether a listed trigger holds what a create sent: the test a create's recovery applies before it takes a
// new trigger of the same name as its own (triggerCreate.ts). Only what the body set is compared: the
// service fills in the rest (defaults such as `exceeded_limit`, `frequency`, `alert_type`; the `query_id`
// of an inline query; a recipient's `type` and `target` for its id; members of its own such as
// `auto_investigate`), so a member the body left out never counts against a match.

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Lists the service holds in an order of its own (service facts), by path: they are sets. */
const UNORDERED = new Set(['recipients', 'tags', 'query.filters', 'query.havings', 'query.calculated_fields']);

/** An empty value the service may list as left out (absent or null). */
const isEmpty = (v: unknown): boolean =>
  v === '' || v === null || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);

/** Every element of `sent` held by its own element of `listed`, in any order, and no element more. */
function coversAsSet(sent: readonly unknown[], listed: readonly unknown[], path: string): boolean {
  if (sent.length !== listed.length) return false;
  const left = [...listed];
  return sent.every((s) => {
    const i = left.findIndex((l) => covers(s, l, `${path}[]`));
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

/**
 * Whether `listed` holds what `sent` set (members `sent` leaves out are the service's to fill). `path` names
 * where they are (`query.filters`; `[]` for an element of a list).
 */
function covers(sent: unknown, listed: unknown, path: string): boolean {
  if (sent === undefined) return true;
  if (isEmpty(sent) && (listed === undefined || listed === null)) return true;
  // The default combination, which the service never echoes.
  if (sent === 'AND' && (listed === undefined || listed === null) && path.endsWith('filter_combination')) return true;
  if (Array.isArray(sent)) {
    if (!Array.isArray(listed)) return false;
    if (UNORDERED.has(path)) return coversAsSet(sent, listed, path);
    return sent.length === listed.length && sent.every((s, i) => covers(s, listed[i], `${path}[]`));
  }
  if (isRecord(sent))
    return (
      isRecord(listed) && Object.entries(sent).every(([k, v]) => covers(v, listed[k], path === '' ? k : `${path}.${k}`))
    );
  return sent === listed;
}

/** The top-level members `sent` set that `listed` holds otherwise; none when the listed trigger is the one sent. */
export function membersNotAsSent(
  sent: Readonly<Record<string, unknown>>,
  listed: Readonly<Record<string, unknown>>,
): string[] {
  return Object.entries(sent)
    .filter(([member, value]) => !covers(value, listed[member], member))
    .map(([member]) => member);
}
