import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test } from './harness';
import { contributes, obsSeam, obsExtension } from './helpers';

suite('activation', () => {
  test('obs-tools.obs-vscode activates, exports nothing, and opens its test seam in this test run', async () => {
    const seam = await obsSeam();
    assert.equal(obsExtension().isActive, true);
    assert.equal(obsExtension().exports, undefined);
    assert.equal(typeof seam.log.info, 'function', 'the seam holds the log channel');
  });

  test('every command in contributes.commands is registered', async () => {
    await obsSeam();
    const declared = (contributes().commands ?? []).map((c) => c.command);
    assert.ok(declared.length > 0, 'package.json declares no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      declared.filter((c) => !registered.has(c)),
      [],
      'declared but not registered',
    );
  });

  test('the "obs" view container and its views exist', async () => {
    await obsSeam();
    const containers = contributes().viewsContainers?.activitybar ?? [];
    assert.ok(
      containers.some((c) => c.id === 'obs'),
      'package.json declares no "obs" view container',
    );
    const commands = new Set(await vscode.commands.getCommands(true));
    // The workbench registers an "open" command per view container and a "focus" command per view.
    assert.ok(commands.has('workbench.view.extension.obs'), 'view container obs is not registered');
    const views = (contributes().views?.['obs'] ?? []).map((v) => v.id);
    assert.ok(views.length > 0, 'no views declared in the obs container');
    assert.deepEqual(
      views.filter((id) => !commands.has(`${id}.focus`)),
      [],
      'views not registered',
    );
    await vscode.commands.executeCommand('workbench.view.extension.obs');
  });
});
