// Where the obs.pullFolder setting lets an editor pull write (src/extension/sync/pullFolder.ts): never
// outside the workspace folder, no absolute path in Restricted Mode, links resolved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outsideWorkspace, settingFolder } from '../../src/extension/sync/pullFolder';
import { nodeFileSystem } from '../../src/triggerFiles/nodeFs';

const trusted = { trusted: true, localDisk: true };
const restricted = { trusted: false, localDisk: true };

test('a relative setting is its segments below the workspace folder, `.` and `..` inside it resolved', () => {
  assert.deepEqual(settingFolder('triggers', restricted), { kind: 'relative', segments: ['triggers'] });
  assert.deepEqual(settingFolder('./conf\\alerts/../triggers/', restricted), {
    kind: 'relative',
    segments: ['conf', 'triggers'],
  });
});

test('a setting that climbs out of the workspace folder is refused, trusted or not', () => {
  for (const o of [trusted, restricted]) {
    for (const setting of ['..', '../elsewhere', 'a/../../b', '..\\x']) {
      assert.deepEqual(settingFolder(setting, o), {
        kind: 'refused',
        reason: `The "obs.pullFolder" setting (${setting}) leads outside the workspace folder. Choose such a folder with "Choose Another Folder...".`,
      });
    }
  }
});

test('an absolute setting is refused in Restricted Mode, and for a workspace folder not on this computer', () => {
  for (const setting of ['/etc/cron.d', 'C:\\Windows', 'c:relative', '\\\\server\\share']) {
    assert.deepEqual(settingFolder(setting, restricted), {
      kind: 'refused',
      reason: `The "obs.pullFolder" setting is an absolute path (${setting}); in Restricted Mode a pull writes only inside the workspace folder. Choose the folder with "Choose Another Folder...".`,
    });
  }
  assert.equal(settingFolder('/srv/triggers', { trusted: true, localDisk: false }).kind, 'refused');
  assert.deepEqual(settingFolder('/srv/triggers', trusted), { kind: 'absolute', path: '/srv/triggers' });
});

test("the setting's folder must really lie inside the workspace folder: a link leading out is refused, one inside is fine", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-pull-folder-'));
  try {
    const workspace = join(dir, 'ws');
    mkdirSync(join(workspace, 'shared'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    symlinkSync(join(dir, 'outside'), join(workspace, 'triggers'));
    symlinkSync('shared', join(workspace, 'inside'));
    const realPath = (p: string) => nodeFileSystem.realPath(p);
    const out = await outsideWorkspace(join(workspace, 'triggers'), workspace, realPath);
    assert.match(
      out ?? '',
      /^The folder of the "obs\.pullFolder" setting, .*\/ws\/triggers, really lies at .*\/outside, outside the workspace folder .*\/ws\. Choose it with "Choose Another Folder\.\.\." to pull there\.$/,
    );
    assert.equal(
      await outsideWorkspace(join(workspace, 'inside', 'new', 'deeper'), workspace, realPath),
      undefined,
      'a folder still to be made, below a link inside',
    );
    assert.equal(await outsideWorkspace(join(workspace, 'not-yet'), workspace, realPath), undefined);
    assert.notEqual(await outsideWorkspace('/', workspace, realPath), undefined, 'an absolute path outside');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('obs.pullFolder is a restricted setting: in Restricted Mode VS Code takes it from the user settings only', async () => {
  const manifest = (await import('../../package.json', { with: { type: 'json' } })).default as {
    capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  };
  assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('obs.pullFolder'));
});

test('a refusal names the setting it comes from (the burn alert and definitions folders have their own)', () => {
  assert.deepEqual(settingFolder('../out', restricted, 'obs.burnAlertPullFolder'), {
    kind: 'refused',
    reason:
      'The "obs.burnAlertPullFolder" setting (../out) leads outside the workspace folder. Choose such a folder with "Choose Another Folder...".',
  });
});
