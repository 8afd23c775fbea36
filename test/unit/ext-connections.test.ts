import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkEnvironmentId,
  checkName,
  checkServiceUrl,
  checkTeam,
  connectionLabel,
  looksLikeProduction,
  normaliseUrl,
  type ConnectionProfile,
} from '../../src/extension/connections/profiles';
import { ConnectionStore } from '../../src/extension/connections/connectionStore';
import { connectionTooltip } from '../../src/extension/connections/connectionTooltip';
import { TOOLTIP_MARKDOWN_MAX } from '../../src/extension/core/text';
import { SecretStore, connectionIdOfStorageKey, secretStorageKey } from '../../src/extension/connections/secretStore';
import { MemoryMemento } from '../../scripts/memoryMemento';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { RememberedItems } from '../../src/extension/tree/rememberedItems';

const profile = (over: Partial<ConnectionProfile> = {}): ConnectionProfile => ({
  id: 'conn-1',
  name: 'staging',
  baseUrl: 'https://api.example.com',
  uiUrl: 'https://ui.example.com',
  team: 'acme',
  environmentId: 'env_1',
  ...over,
});

test("the status bar's tooltip shows the connection's name, address, team and environment as escaped text, then what a click does", () => {
  assert.equal(
    connectionTooltip(profile({ name: '[x](command:evil)', team: '*acme*' })),
    '**\\[x\\]\\(command\\:evil\\)**\n\n' +
      'Address: https\\:\\/\\/api\\.example\\.com  \nTeam: \\*acme\\*  \nEnvironment: env\\_1\n\n' +
      'Click to switch connection\\.',
  );
});

test("the status bar's tooltip stays within 10,000 characters however long the connection's texts are: the name as shown (64 characters), the rest cut", () => {
  // Punctuation escapes to two characters: each capped text still takes thousands.
  const md = connectionTooltip(
    profile({
      name: '!'.repeat(5_000),
      baseUrl: `https://x/${'!'.repeat(5_000)}`,
      team: '!'.repeat(5_000),
      environmentId: '!'.repeat(5_000),
    }),
  );
  assert.ok(md.length <= TOOLTIP_MARKDOWN_MAX, `${md.length} characters`);
  assert.ok(md.startsWith(`**${'\\!'.repeat(63)}\u2026**\n\n`), md.slice(0, 200));
  assert.ok(md.endsWith('\\(shortened\\; 5000 characters in all\\)\n\nClick to switch connection\\.'), md.slice(-200));
});

test("the status bar's tooltip shows a zero-width character in a name as U+FFFD, as everywhere the name is shown", () => {
  assert.ok(connectionTooltip(profile({ name: 'pr\u200Bod' })).startsWith('**pr\uFFFDod**'));
});

test('checkServiceUrl accepts https and loopback http without a warning', () => {
  const a = checkServiceUrl('https://api.example.com/', 'Base URL');
  assert.ok(a.ok && a.warning === undefined);
  const b = checkServiceUrl('http://127.0.0.1:4318', 'Base URL');
  assert.ok(b.ok && b.warning === undefined);
  const c = checkServiceUrl('http://localhost:8080', 'Base URL');
  assert.ok(c.ok && c.warning === undefined);
});

test('checkServiceUrl warns about plain http to a non-loopback host', () => {
  const r = checkServiceUrl('http://api.example.com', 'Base URL');
  assert.ok(r.ok);
  assert.equal(r.warning, 'Base URL uses plain http: keys would be sent unencrypted to api.example.com');
});

test('checkServiceUrl refuses what does not parse, other schemes, credentials and queries', () => {
  const message = (s: string): string | undefined => {
    const r = checkServiceUrl(s, 'Base URL');
    return r.ok ? undefined : r.reason;
  };
  assert.equal(message(''), 'Base URL must not be empty');
  assert.equal(message('api.example.com'), 'Base URL is not a valid URL (expected e.g. https://api.example.com)');
  assert.equal(message('ftp://api.example.com'), 'Base URL must start with https:// or http://');
  assert.equal(message('https://u:p@api.example.com'), 'Base URL must not contain a user name or password');
  assert.equal(message('https://api.example.com/?x=1'), 'Base URL must not contain a query (?) or fragment (#)');
});

test('normaliseUrl drops the trailing slash', () => {
  assert.equal(normaliseUrl(new URL('https://api.example.com/')), 'https://api.example.com');
  assert.equal(normaliseUrl(new URL('https://api.example.com/prefix/')), 'https://api.example.com/prefix');
});

test('team slug, environment id and name are checked', () => {
  assert.equal(checkTeam('  '), 'Team slug must not be empty');
  assert.equal(checkTeam('a b'), 'Team slug must not contain spaces, "/", "?" or "#"');
  assert.equal(checkTeam('acme'), undefined);
  assert.equal(checkEnvironmentId(''), 'Environment id must not be empty');
  assert.equal(checkName('Staging', [profile()]), 'A connection named "staging" already exists');
  assert.equal(checkName('staging', [profile()], 'conn-1'), undefined);
});

test('a connection name is shown with every bidi control, line break and invisible character as U+FFFD', () => {
  assert.equal(
    connectionLabel('prod\u202Egnitset'),
    'prod\uFFFDgnitset',
    'a right-to-left override cannot reverse what follows',
  );
  assert.equal(connectionLabel('\u2067staging\u2069 \u200Fx'), '\uFFFDstaging\uFFFD \uFFFDx', 'isolates and marks');
  assert.equal(connectionLabel('pr\u200Bod\u2060'), 'pr\uFFFDod\uFFFD', 'zero-width characters that would hide "prod"');
  assert.equal(
    connectionLabel('a\nb\tc\u0007\u2028d'),
    'a\uFFFDb\uFFFDc\uFFFD\uFFFDd',
    'line breaks, tabs and other controls',
  );
  assert.equal(
    connectionLabel('  Produktion (Zürich) 🇨🇭 '),
    'Produktion (Zürich) 🇨🇭',
    'other text is kept as it is, trimmed',
  );
});

test('a connection name is shown without icons and cut after 64 characters, never inside a character', () => {
  assert.equal(connectionLabel('$(alert) prod'), '$\u200B(alert) prod', 'VS Code would draw $(alert) as an icon');
  assert.equal(connectionLabel('x'.repeat(64)), 'x'.repeat(64));
  assert.equal(connectionLabel('😀'.repeat(70)), `${'😀'.repeat(63)}\u2026`);
});

test('a name holding a hidden character is refused at entry, naming it and where it is', () => {
  assert.equal(
    checkName('prod\u202Egnitset', []),
    'Connection name must not contain control or invisible formatting characters, which change how the text around it reads: U+202E at position 5',
  );
  assert.match(checkName('x\u200By', []) ?? '', /U\+200B at position 2$/);
  assert.match(
    checkName('🇨🇭\u0000', []) ?? '',
    /U\+0000 at position 3$/,
    'positions count characters, not UTF-16 units',
  );
  assert.equal(checkName('Produktion (Zürich) 🇨🇭', []), undefined);
});

test('production-like names are recognised', () => {
  assert.equal(looksLikeProduction('Production'), true);
  assert.equal(looksLikeProduction('eu-prod-2'), true);
  assert.equal(looksLikeProduction('staging'), false);
});

test('ConnectionStore saves, switches and removes profiles; removing the active one leaves none active', async () => {
  const memento = new MemoryMemento();
  const store = new ConnectionStore(memento);
  await store.save(profile());
  await store.save(profile({ id: 'conn-2', name: 'production' }));
  await store.setActive('conn-1');
  assert.equal(store.active()?.name, 'staging');
  await store.remove('conn-1');
  assert.deepEqual(
    store.list().map((p) => p.id),
    ['conn-2'],
  );
  assert.equal(store.activeId(), undefined, "production must not become active behind the user's back");
  assert.equal(new ConnectionStore(memento).activeId(), undefined, 'nor in a new window');
});

test('ConnectionStore keeps the active connection per window: a switch in another window does not retarget this one', async () => {
  const shared = new MemoryMemento(); // globalState is shared by every window
  await new ConnectionStore(shared).save(profile());
  await new ConnectionStore(shared).save(profile({ id: 'conn-2', name: 'production' }));
  const windowA = new ConnectionStore(shared);
  const windowB = new ConnectionStore(shared);
  await windowA.setActive('conn-1');
  await windowB.setActive('conn-2');
  assert.equal(windowA.active()?.name, 'staging');
  assert.equal(windowB.active()?.name, 'production');
  assert.equal(new ConnectionStore(shared).active()?.name, 'production', 'a new window starts with the last choice');
});

test('ConnectionStore: a profile removed by another window is no longer active here', async () => {
  const shared = new MemoryMemento();
  const windowA = new ConnectionStore(shared);
  await windowA.save(profile());
  await windowA.setActive('conn-1');
  await new ConnectionStore(shared).remove('conn-1');
  assert.equal(windowA.activeId(), undefined);
});

test('ConnectionStore keeps transient profiles (the sandbox) in memory only, never in globalState', async () => {
  const memento = new MemoryMemento();
  const store = new ConnectionStore(memento);
  await store.save(profile());
  await store.setActive('conn-1');
  let changes = 0;
  store.onDidChange(() => changes++);
  store.addTransient(profile({ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:4318' }));
  await store.setActive('sandbox');
  assert.deepEqual(
    store.list().map((p) => p.id),
    ['conn-1', 'sandbox'],
  );
  assert.equal(store.active()?.name, 'Sandbox');
  assert.doesNotMatch(JSON.stringify([...memento.data]), /sandbox|4318/i);
  assert.equal(new ConnectionStore(memento).activeId(), 'conn-1', 'another window neither sees it nor activates it');
  await assert.rejects(store.save(profile({ id: 'sandbox', name: 'Sandbox' })), /exists only in this window/);
  await store.remove('sandbox');
  assert.deepEqual(
    store.list().map((p) => p.id),
    ['conn-1'],
  );
  assert.equal(store.activeId(), undefined);
  assert.equal(changes, 3);
});

test('ConnectionStore stores only the profile fields, even when handed an object carrying a key', async () => {
  const memento = new MemoryMemento();
  const store = new ConnectionStore(memento);
  await store.save({ ...profile(), configKey: 'SECRET-abc' } as ConnectionProfile);
  assert.doesNotMatch(JSON.stringify([...memento.data]), /SECRET-abc/);
});

test('ConnectionStore refuses an invalid profile and keeps the stored ones', async () => {
  const store = new ConnectionStore(new MemoryMemento());
  await store.save(profile());
  await assert.rejects(
    store.save(profile({ id: 'conn-2', baseUrl: 'nope' })),
    /invalid connection: baseUrl is not a valid URL/,
  );
  assert.equal(store.list().length, 1);
});

class FakeSecrets {
  readonly data = new Map<string, string>();
  private listeners: Array<(e: { key: string }) => void> = [];
  async get(key: string): Promise<string | undefined> {
    return this.data.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.data.set(key, value);
    this.listeners.forEach((l) => l({ key }));
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
    this.listeners.forEach((l) => l({ key }));
  }
  onDidChange = (l: (e: { key: string }) => void): { dispose(): void } => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
}

test('SecretStore keys secrets per connection and reports which connection changed', async () => {
  const secrets = new FakeSecrets();
  const store = new SecretStore(secrets);
  const changed: string[] = [];
  store.onDidChange((id) => changed.push(id));
  await store.set('conn-1', { configKey: 'ck', managementKey: 'id:secret' });
  await store.set('conn-2', { configKey: 'ck2' });
  assert.deepEqual(await store.get('conn-1'), { configKey: 'ck', managementKey: 'id:secret' });
  assert.deepEqual(await store.get('conn-2'), { configKey: 'ck2', managementKey: undefined });
  assert.deepEqual(changed, ['conn-1', 'conn-1', 'conn-2']);
  await store.delete('conn-1');
  assert.deepEqual([...secrets.data.keys()], [secretStorageKey('conn-2', 'configKey')]);
});

test('connectionIdOfStorageKey ignores keys that are not ours', () => {
  assert.equal(connectionIdOfStorageKey(secretStorageKey('conn-9', 'managementKey')), 'conn-9');
  assert.equal(connectionIdOfStorageKey('other.extension/key'), undefined);
  assert.equal(connectionIdOfStorageKey('obs.connection/conn-9/password'), undefined);
});

test('KeyRegistry remembers ids and names only, never a secret passed along', async () => {
  const memento = new MemoryMemento();
  const registry = new KeyRegistry(memento);
  let changes = 0;
  registry.onDidChange(() => changes++);
  const withSecret = {
    id: 'hcxik_1',
    name: 'ingest',
    disabled: false,
    keyType: 'ingest',
    secret: 'TOP-SECRET-1',
    attributes: { secret: 'TOP-SECRET-2' },
  };
  await registry.remember('conn-1', withSecret);
  assert.deepEqual(registry.list('conn-1'), [{ id: 'hcxik_1', name: 'ingest', disabled: false, keyType: 'ingest' }]);
  assert.doesNotMatch(JSON.stringify([...memento.data]), /TOP-SECRET/);
  await registry.update('conn-1', 'hcxik_1', { disabled: true, secret: 'TOP-SECRET-3' } as Partial<{
    disabled: boolean;
  }>);
  assert.equal(registry.list('conn-1')[0]?.disabled, true);
  assert.doesNotMatch(JSON.stringify([...memento.data]), /TOP-SECRET/);
  await registry.forget('conn-1', 'hcxik_1');
  assert.deepEqual(registry.list('conn-1'), []);
  assert.equal(changes, 3);
});

test('KeyRegistry keeps connections apart and replaces a key remembered twice', async () => {
  const registry = new KeyRegistry(new MemoryMemento());
  await registry.remember('a', { id: 'k1', name: 'one', disabled: false, keyType: 'ingest' });
  await registry.remember('a', { id: 'k1', name: 'renamed', disabled: false, keyType: 'ingest' });
  await registry.remember('b', { id: 'k2', name: 'two', disabled: false, keyType: 'ingest' });
  assert.deepEqual(
    registry.list('a').map((k) => k.name),
    ['renamed'],
  );
  assert.deepEqual(
    registry.list('b').map((k) => k.id),
    ['k2'],
  );
});

test('RememberedItems keeps datasets, hidden datasets and SLOs per connection', async () => {
  const r = new RememberedItems(new MemoryMemento());
  await r.addDatasets('a', ['orders', 'payments', 'orders']);
  await r.hideDataset('a', 'payments');
  await r.addSlos('a', 'orders', ['slo1', 'slo2']);
  assert.deepEqual(r.datasets('a'), ['orders', 'payments']);
  assert.deepEqual(r.hidden('a'), ['payments']);
  assert.deepEqual(r.slos('a', 'orders'), ['slo1', 'slo2']);
  assert.deepEqual(r.datasets('b'), []);
  await r.addDatasets('a', ['payments']);
  assert.deepEqual(r.hidden('a'), [], 'adding a hidden dataset again shows it');
});

test('RememberedItems.removeDataset takes away the "added" mark and keeps the SLO ids', async () => {
  const r = new RememberedItems(new MemoryMemento());
  await r.addDatasets('a', ['orders', 'payments']);
  await r.addSlos('a', 'orders', ['slo1', 'slo2']);
  await r.removeDataset('a', 'orders');
  assert.deepEqual(r.datasets('a'), ['payments']);
  assert.deepEqual(r.slos('a', 'orders'), ['slo1', 'slo2']);
});

test('RememberedItems.forgetDataset takes away the "added" mark and the SLO ids', async () => {
  const r = new RememberedItems(new MemoryMemento());
  await r.addDatasets('a', ['orders', 'payments']);
  await r.addSlos('a', 'orders', ['slo1']);
  await r.addSlos('a', 'payments', ['slo9']);
  await r.forgetDataset('a', 'orders');
  assert.deepEqual(r.datasets('a'), ['payments']);
  assert.deepEqual(r.slos('a', 'orders'), []);
  assert.deepEqual(r.slos('a', 'payments'), ['slo9']);
});
