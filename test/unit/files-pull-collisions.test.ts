// Trigger names that differ only in letter case or Unicode form name the same file on macOS and Windows:
// pull compares paths after NFKC and case folding (pathKey) and gives the later trigger the id suffix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  pathKey,
  planPull,
  triggerFileText,
  type ExistingFile,
  type PullItem,
  type ServiceTrigger,
} from '../../src/triggerFiles';

const trig = (id: string, name: string, dataset = 'api'): ServiceTrigger => ({
  id,
  name,
  dataset_slug: dataset,
  threshold: { op: '>', value: 1 },
  query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
});
const item = (t: ServiceTrigger): PullItem => ({ dataset: t.dataset_slug ?? 'api', trigger: t });

test('pathKey folds letter case and Unicode compatibility forms', () => {
  assert.equal(pathKey('api/High-Latency.trigger.json'), pathKey('api/high-LATENCY.trigger.json'));
  assert.equal(pathKey('ﬁre'), pathKey('FIRE'), 'a ligature is its letters');
  assert.equal(pathKey('Stra\u00dfe'), pathKey('STRASSE'), 'ß is ss');
  assert.equal(pathKey('\u212a'), pathKey('k'), 'the Kelvin sign is k');
  assert.equal(pathKey('e\u0301'), pathKey('\u00c9'), 'a combining accent is the composed letter');
  assert.notEqual(pathKey('a-b'), pathKey('a_b'));
});

test('two triggers whose names differ only in letter case get different files: the second has its id in the name', () => {
  const plan = planPull([item(trig('t1', 'High-Latency')), item(trig('t2', 'High-latency'))], []);
  assert.deepEqual(plan.map((a) => [a.kind, a.path, a.item.trigger.id]).sort(), [
    ['create', 'api/High-Latency.trigger.json', 't1'],
    ['create', 'api/High-latency-t2.trigger.json', 't2'],
  ]);
});

test('a file on disk whose name differs only in case or Unicode form takes the name: the new trigger gets the id suffix', () => {
  const other = triggerFileText(trig('t9', 'something else'));
  const existing: ExistingFile[] = [
    { path: 'api/high-latency.trigger.json', text: other },
    { path: 'api/\ufb01re.trigger.json', text: other },
  ];
  const plan = planPull([item(trig('t1', 'High-Latency')), item(trig('t2', 'FIRE'))], existing);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [
      ['create', 'api/FIRE-t2.trigger.json'],
      ['create', 'api/High-Latency-t1.trigger.json'],
    ],
  );
});

test('ids that differ only in case cannot make the suffixed names meet either', () => {
  const plan = planPull([item(trig('ab', 'X')), item(trig('AB', 'x')), item(trig('Ab', 'X'))], []);
  const paths = plan.map((a) => a.path);
  assert.equal(new Set(paths.map((p) => p.toLowerCase())).size, 3, paths.join(', '));
});

/** The test's own fold (NFKC, upper then lower case), so the property does not lean on the code it checks. */
const folded = (p: string) => p.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

// Names and ids from a small alphabet of letters that meet when folded, so collisions are frequent.
const letters = fc.constantFrom(
  'a',
  'A',
  'b',
  'B',
  'ß',
  'S',
  's',
  'ﬁ',
  'f',
  'i',
  'I',
  'K',
  '\u212a',
  'é',
  'e\u0301',
  'É',
  '-',
  ' ',
  '.',
);
const word = fc.array(letters, { minLength: 1, maxLength: 5 }).map((cs) => cs.join(''));
const dataset = fc.constantFrom('api', 'API', 'Api', 'all', '__all__');
const items = fc
  .uniqueArray(fc.record({ id: word, name: word, dataset }), { selector: (r) => r.id, maxLength: 12 })
  .map((rs) => rs.map((r) => item(trig(r.id, r.name, r.dataset))));
const existing = fc.array(
  fc.record({ folder: dataset, file: word, id: fc.option(word, { nil: undefined }), name: word }).map(
    (r): ExistingFile => ({
      path: `${r.folder === '__all__' || r.folder === 'all' ? '__all__' : r.folder}/${r.file}.trigger.json`,
      text: JSON.stringify({ ...(r.id === undefined ? {} : { id: r.id }), name: r.name, dataset_slug: r.folder }),
    }),
  ),
  { maxLength: 6 },
);

test('property: no two triggers of a pull go to paths that are equal once case-folded and normalised', () => {
  fc.assert(
    fc.property(items, existing, (pulled, onDisk) => {
      const plan = planPull(pulled, onDisk);
      assert.equal(plan.length, pulled.length);
      const keys = plan.map((a) => folded(a.path));
      assert.equal(new Set(keys).size, keys.length, plan.map((a) => a.path).join(', '));
      // A new file never takes the name of a file on disk in any case either.
      const taken = new Set(onDisk.map((f) => folded(f.path)));
      for (const a of plan) if (a.kind === 'create') assert.equal(taken.has(folded(a.path)), false, a.path);
    }),
    { numRuns: 500 },
  );
});
