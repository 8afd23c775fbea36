// Reading only inside a folder (src/triggerFiles/contained.ts and the command line's files, src/cli/files.ts):
// where a path lies once links are resolved, and walks and globs that never leave the folder they keep to.
// A temporary tree holds a link to `/`, a link to a folder outside it with trigger files, and a link to a
// file outside it; nothing of those may be listed, matched or taken.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { globSync, type GlobOptions } from 'tinyglobby';
import { expandPaths, expandTargets } from '../../src/cli/files';
import { globInside, notReadText, placeIn } from '../../src/triggerFiles/contained';

const top = realpathSync(mkdtempSync(join(tmpdir(), 'obs-contained-')));
after(() => rmSync(top, { recursive: true, force: true }));

/** The folder read: triggers/api/{a,b}.trigger.json, tests beside them, and three links out. */
const root = join(top, 'repo');
/** Outside it: a folder of trigger files and a secret a link points at. */
const outside = join(top, 'elsewhere');
mkdirSync(join(root, 'triggers', 'api'), { recursive: true });
mkdirSync(join(outside, 'deep'), { recursive: true });
writeFileSync(join(root, 'triggers', 'api', 'a.trigger.json'), '{}');
writeFileSync(join(root, 'triggers', 'api', 'b.trigger.json'), '{}');
writeFileSync(join(root, 'triggers', 'api', 'a.trigger-test.json'), '{}');
for (let i = 0; i < 5; i++) writeFileSync(join(outside, 'deep', `outside-${i}.trigger.json`), '{}');
writeFileSync(join(outside, 'secret.trigger.json'), 'SECRET');
writeFileSync(join(outside, 'x.trigger-test.json'), '{}');
symlinkSync('/', join(root, 'slash'));
symlinkSync(outside, join(root, 'triggers', 'escape'));
symlinkSync(join(outside, 'secret.trigger.json'), join(root, 'triggers', 'api', 'leak.trigger.json'));
// A link that stays inside is taken, and a link in node_modules is not worth a word.
symlinkSync('a.trigger.json', join(root, 'triggers', 'api', 'alias.trigger.json'));
mkdirSync(join(root, 'node_modules'));
symlinkSync(outside, join(root, 'node_modules', 'pkg'));

const INSIDE = ['triggers/api/a.trigger.json', 'triggers/api/alias.trigger.json', 'triggers/api/b.trigger.json'];
const OUTSIDE_LINKS = ['slash', 'triggers/api/leak.trigger.json', 'triggers/escape'];

describe('where a path lies against a folder', () => {
  test('a file under the folder, a file that does not exist yet, and the folder itself lie inside', async () => {
    assert.deepEqual(
      await Promise.all(
        ['triggers/api/a.trigger.json', 'triggers/new.trigger.json', '.', join(root, 'triggers')].map((p) =>
          placeIn(root, p),
        ),
      ),
      ['inside', 'inside', 'inside', 'inside'],
    );
  });

  test('a path that climbs out, or an absolute path elsewhere, lies outside as written', async () => {
    assert.deepEqual(
      await Promise.all(['../elsewhere/secret.trigger.json', outside, 'triggers/../../x'].map((p) => placeIn(root, p))),
      ['outside', 'outside', 'outside'],
    );
  });

  test('a link to a file outside, a path under a link to a folder outside, even one that does not exist, lead outside through a link', async () => {
    assert.deepEqual(
      await Promise.all(
        [
          'triggers/api/leak.trigger.json',
          'triggers/escape/deep/outside-0.trigger.json',
          'triggers/escape/new.trigger.json',
          'slash/etc',
        ].map((p) => placeIn(root, p)),
      ),
      ['through-link', 'through-link', 'through-link', 'through-link'],
    );
  });

  test('a link to a file inside lies inside', async () => {
    assert.equal(await placeIn(root, 'triggers/api/alias.trigger.json'), 'inside');
  });

  test('a loop of links cannot be resolved', async () => {
    const loop = join(root, 'loop.trigger.json');
    symlinkSync(loop, loop);
    try {
      assert.equal(await placeIn(root, 'loop.trigger.json'), 'unresolved');
    } finally {
      rmSync(loop);
    }
  });

  test('what obs says of each', () => {
    assert.equal(notReadText('x.json', 'outside'), 'x.json is outside the current folder: not read');
    assert.equal(
      notReadText('x.json', 'through-link'),
      'x.json leads outside the current folder through a link: not read',
    );
    assert.equal(
      notReadText('x.json', 'unresolved', 'triggers'),
      'x.json: its links could not be resolved, so it may lead outside triggers: not read',
    );
  });
});

describe('a walk that keeps inside the folder', () => {
  /** tinyglobby's globSync, with every folder it lists recorded; one outside the folder is recorded and not listed. */
  function listing() {
    const listed: string[] = [];
    // node's readdirSync itself, each call recorded first (a Proxy keeps its overloaded type).
    const readdir = new Proxy(readdirSync, {
      apply(target, thisArg: unknown, args: unknown[]) {
        const real = realpathSync(String(args[0]));
        listed.push(real);
        return real.startsWith(`${root}${sep}`) || real === root ? Reflect.apply(target, thisArg, args) : [];
      },
    });
    const glob = (pattern: string, options: GlobOptions) =>
      globSync(pattern, { ...options, fs: { ...options.fs, readdirSync: readdir } });
    return { listed, glob };
  }

  test('lists no folder outside it: a link to / or to a folder outside is not walked', async () => {
    const { listed, glob } = listing();
    await globInside(glob, root, root, '**/*.trigger.json', { ignore: ['**/node_modules/**'] });
    assert.deepEqual(
      listed.filter((d) => !d.startsWith(root)),
      [],
    );
  });

  test('finds the files inside (a link to a file inside too) and names each link leading outside', async () => {
    const { glob } = listing();
    const found = await globInside(glob, root, root, '**/*.trigger.json', { ignore: ['**/node_modules/**'] });
    assert.deepEqual(found, { files: INSIDE, outside: OUTSIDE_LINKS, unreadable: [] });
  });

  test('names a folder it could not list: its files may hold triggers', async () => {
    // node's readdirSync, refusing the folder api as a folder without read permission does.
    const denied = new Proxy(readdirSync, {
      apply(target, thisArg: unknown, args: unknown[]) {
        const path = String(args[0]);
        if (path.endsWith(`${sep}api`) || path.endsWith(`${sep}api${sep}`))
          throw Object.assign(new Error('permission denied'), { code: 'EACCES' });
        return Reflect.apply(target, thisArg, args);
      },
    });
    const found = await globInside(globSync, root, root, '**/*.trigger.json', {
      ignore: ['**/node_modules/**'],
      fs: { readdirSync: denied },
    });
    assert.deepEqual(found.unreadable, [
      {
        path: 'triggers/api',
        reason: 'it is a folder that could not be listed (EACCES), and its files may hold triggers',
      },
    ]);
    assert.ok(!found.files.some((f) => f.startsWith('triggers/api/')));
  });
});

describe("the command line's files (drift, plan, test)", () => {
  test('a folder walk takes only the files inside and refuses each link leading outside, naming it', async () => {
    const t = await expandPaths(['.'], root, '.trigger.json');
    assert.deepEqual(t.files, INSIDE);
    assert.deepEqual(t.outside, OUTSIDE_LINKS);
    assert.deepEqual(
      t.problems,
      OUTSIDE_LINKS.map((l) => `${l} leads outside the current folder through a link: not read`),
    );
  });

  test('a glob takes only the files inside', async () => {
    const t = await expandPaths(['triggers/**/*.json'], root, '.trigger.json');
    assert.deepEqual([t.files, t.outside], [INSIDE, ['triggers/api/leak.trigger.json', 'triggers/escape']]);
  });

  test('a path outside the folder, as written or through a link, is refused, and so is a glob searching there', async () => {
    const named = [
      '../elsewhere/secret.trigger.json',
      'triggers/api/leak.trigger.json',
      'triggers/escape',
      'triggers/escape/**/*.json',
      `${outside}/**/*.json`,
    ];
    const t = await expandPaths(named, root, '.trigger.json');
    assert.deepEqual(t.files, []);
    assert.deepEqual(t.problems, [
      '../elsewhere/secret.trigger.json is outside the current folder: not read',
      'triggers/api/leak.trigger.json leads outside the current folder through a link: not read',
      'triggers/escape leads outside the current folder through a link: not read',
      'triggers/escape/**/*.json leads outside the current folder through a link: not read',
      `${outside}/**/*.json is outside the current folder: not read`,
    ]);
  });

  test('obs test walks for test files the same way', async () => {
    const t = await expandPaths(['.'], root, '.trigger-test.json');
    assert.deepEqual(
      [t.files, t.outside],
      [['triggers/api/a.trigger-test.json'], OUTSIDE_LINKS.filter((l) => !l.endsWith('leak.trigger.json'))],
    );
  });
});

describe("obs lint's files", () => {
  test('a file named outside the folder is taken: the user named it', async () => {
    assert.deepEqual(await expandTargets([join(outside, 'secret.trigger.json')], root, '.trigger.json'), {
      files: [join(outside, 'secret.trigger.json')],
      problems: [],
      nothing: [],
      outside: [],
      named: [join(outside, 'secret.trigger.json')],
      unreadable: [],
    });
  });

  test("a glob's walk keeps inside the folder it searches: links out of it are named, not followed", async () => {
    const t = await expandTargets(['triggers/**/*.trigger.json'], root, '.trigger.json');
    assert.deepEqual(t, {
      files: INSIDE,
      problems: [
        'triggers/api/leak.trigger.json leads outside triggers through a link: not read',
        'triggers/escape leads outside triggers through a link: not read',
      ],
      nothing: [],
      outside: ['triggers/api/leak.trigger.json', 'triggers/escape'],
      named: [],
      unreadable: [],
    });
  });
});
