// The MCP server definition of the active connection in a fake editor (vscode-fake.ts), as VS Code lists it and
// then hands it back to start: VS Code keeps definitions in its storage and may start one listed before the
// connection's address changed, so the key goes with the connection's address as it is now.
import { EventEmitter, fake } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServers, type McpServersDeps } from '../../src/extension/agents/mcpServers';
import type { ConnectionProfile } from '../../src/extension/connections';
import type { Logger } from '../../src/extension/core/logger';
import { Settings } from '../../src/extension/core/settings';

const quietLog: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const noSettings = new Settings({
  get: () => undefined,
  inspect: () => undefined,
  update: () => Promise.resolve(),
  onDidChange: () => ({ dispose: () => undefined }),
});

test("a definition listed before the connection's address changed starts with the connection's address, the key beside it", async () => {
  fake.reset();
  let profile: ConnectionProfile = {
    id: 'conn-1',
    name: 'Prod EU',
    baseUrl: 'https://old.example.com',
    uiUrl: '',
    team: 't',
    environmentId: 'e',
  };
  const connections: McpServersDeps['connections'] = {
    activeProfile: () => profile,
    onDidChangeActive: new EventEmitter<ConnectionProfile | undefined>().event,
    configKeyForChild: (id) => Promise.resolve(id === 'conn-1' ? 'secret-key' : undefined),
  };
  const servers = new McpServers({
    connections,
    settings: noSettings,
    extensionPath: '/ext',
    log: quietLog,
    toolsRegistered: false,
  });
  try {
    const [kept] = servers.provideMcpServerDefinitions();
    assert.ok(kept !== undefined);
    assert.equal(kept.env['OBS_BASE_URL'], 'https://old.example.com');

    profile = { ...profile, baseUrl: 'https://api.example.com' };
    const started = await servers.resolveMcpServerDefinition(kept);
    assert.deepEqual(started.env, {
      OBS_BASE_URL: 'https://api.example.com',
      ELECTRON_RUN_AS_NODE: '1',
      OBS_TRIGGER_FOLDER: '',
      OBS_CONFIG_KEY: 'secret-key',
    });
  } finally {
    servers.dispose();
  }
});

test('where the language model tools are registered no server is listed: agent mode has those tools already, and would list them twice', () => {
  fake.reset();
  const profile: ConnectionProfile = {
    id: 'conn-1',
    name: 'Prod EU',
    baseUrl: 'https://api.example.com',
    uiUrl: '',
    team: 't',
    environmentId: 'e',
  };
  const connections: McpServersDeps['connections'] = {
    activeProfile: () => profile,
    onDidChangeActive: new EventEmitter<ConnectionProfile | undefined>().event,
    configKeyForChild: () => Promise.resolve('k'),
  };
  const servers = new McpServers({
    connections,
    settings: noSettings,
    extensionPath: '/ext',
    log: quietLog,
    toolsRegistered: true,
  });
  try {
    assert.deepEqual(servers.provideMcpServerDefinitions(), []);
  } finally {
    servers.dispose();
  }
});
