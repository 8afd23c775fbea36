// core/workspaceEnvironments.ts: the workspace's environments files as the editor uses them: only a file that
// reads without a mistake names environments; the status bar's name for a connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readEnvironmentsFile } from '../../src/extension/core/environmentsReader';
import {
  environmentNames,
  WorkspaceEnvironments,
  type EnvironmentsFileState,
} from '../../src/extension/core/workspaceEnvironments';

const environmentsFileState = (text: string | undefined): EnvironmentsFileState =>
  text === undefined ? { kind: 'absent' } : readEnvironmentsFile(text).state;

const FILE = JSON.stringify({
  home: 'staging',
  environments: {
    staging: { connection: 'Staging' },
    production: { connection: 'Production', datasets: { checkout: 'checkout-prod' } },
  },
});

test('a connection the file names is its environment, the home one said so', () => {
  const envs = new WorkspaceEnvironments();
  envs.update(new Map([['file:///w', environmentsFileState(FILE)]]));
  assert.deepEqual(envs.environmentsOfConnection('Production'), [
    { folder: 'file:///w', environment: 'production', home: false },
  ]);
  assert.deepEqual(envs.environmentsOfConnection('Staging'), [
    { folder: 'file:///w', environment: 'staging', home: true },
  ]);
  assert.deepEqual(envs.environmentsOfConnection('Sandbox'), []);
});

test('a broken file names no environment and keeps its mistakes, each placed in the text', () => {
  const broken = JSON.stringify({ home: 'prod', environments: { staging: { connection: 'Staging' } } });
  const { state, diagnostics } = readEnvironmentsFile(broken);
  assert.deepEqual(state, {
    kind: 'broken',
    problems: [{ path: ['home'], message: 'home must name one of the environments (staging)' }],
  });
  assert.deepEqual(
    diagnostics.map((d) => [d.message, d.range.start]),
    [['home must name one of the environments (staging)', { line: 0, character: 1 }]],
  );
  const envs = new WorkspaceEnvironments();
  envs.update(new Map([['file:///w', state]]));
  assert.deepEqual(envs.environmentsOfConnection('Staging'), []);
  assert.equal(envs.environmentsOf('file:///w'), undefined);
});

test('a file deleted, or its folder removed, names nothing any more, and each change is told once', () => {
  const envs = new WorkspaceEnvironments();
  let changes = 0;
  envs.onDidChange(() => changes++);
  envs.update(
    new Map([
      ['file:///a', environmentsFileState(FILE)],
      ['file:///b', environmentsFileState(FILE)],
    ]),
  );
  envs.update(new Map([['file:///a', environmentsFileState(undefined)]]));
  assert.deepEqual(
    envs.environmentsOfConnection('Production').map((e) => e.folder),
    ['file:///b'],
  );
  envs.keepOnly(new Set(['file:///c']));
  assert.deepEqual(envs.environmentsOfConnection('Production'), []);
  assert.equal(changes, 3);
});

test("the status bar's name: each environment once, none for no environment", () => {
  const at = (folder: string, environment: string) => ({ folder, environment, home: false });
  assert.equal(environmentNames([at('a', 'production'), at('b', 'production')]), 'production');
  assert.equal(environmentNames([at('a', 'production'), at('b', 'prod')]), 'production, prod');
  assert.equal(environmentNames([]), undefined);
});

test("drift's environment of a connection, by folder: an environment other than the home, with its overlay; never the home or an ambiguous one", () => {
  const envs = new WorkspaceEnvironments();
  const shared = JSON.stringify({
    home: 'staging',
    environments: { staging: { connection: 'Staging' }, qa: { connection: 'Staging' }, production: {} },
  });
  envs.update(
    new Map([
      ['file:///a', environmentsFileState(FILE)],
      ['file:///b', environmentsFileState(shared)],
    ]),
  );
  assert.deepEqual(
    {
      production: [...envs.overlaysOfConnection('Production')],
      staging: [...envs.overlaysOfConnection('Staging')],
    },
    {
      production: [
        [
          'file:///a',
          { name: 'production', overlay: { connection: 'Production', datasets: { checkout: 'checkout-prod' } } },
        ],
      ],
      staging: [],
    },
  );
});

test("what a lint on a connection depends on changes only with its own environment's file: none, the home's, another's say nothing", () => {
  const envs = new WorkspaceEnvironments();
  assert.equal(envs.seenKey('Production'), '', 'no file read yet');
  envs.update(new Map([['file:///w', environmentsFileState(FILE)]]));
  assert.deepEqual([envs.seenKey(undefined), envs.seenKey('Staging'), envs.seenKey('Sandbox')], ['', '', '']);
  const production = envs.seenKey('Production');
  assert.deepEqual(JSON.parse(production), [['file:///w', 'production', FILE]]);
  const edited = FILE.replace('checkout-prod', 'checkout-live');
  envs.update(new Map([['file:///w', environmentsFileState(edited)]]));
  assert.deepEqual(JSON.parse(envs.seenKey('Production')), [['file:///w', 'production', edited]]);
  assert.equal(envs.seenKey('Staging'), '', "the home's lint depends on no environments file");
});
