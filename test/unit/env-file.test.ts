// The environments file (docs/ENVIRONMENTS.md): read strictly, every mistake named by its place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEnvironments, type EnvironmentsProblem } from '../../src/triggerFiles/environments';

const file = (environments: Record<string, unknown>, home = 'staging'): string =>
  JSON.stringify({ home, environments: { staging: {}, ...environments } });

function problems(text: string): EnvironmentsProblem[] {
  const read = readEnvironments(text);
  assert.equal(read.ok, false, 'the file should be refused');
  return read.ok ? [] : read.reason;
}

test('a file of a home and one other environment is read, its dataset keys canonical', () => {
  const read = readEnvironments(
    file({
      production: {
        connection: 'Production',
        variables: { baseUrl: 'OBS_PRODUCTION_BASE_URL', key: 'OBS_PRODUCTION_CONFIG_KEY' },
        datasets: { checkout: 'checkout-prod' },
        recipients: [{ from: { type: 'slack', target: '#alerts-staging' }, to: { type: 'slack', target: '#alerts' } }],
        triggers: { __all__: { Uptime: { disabled: true } } },
      },
    }),
  );
  assert.ok(read.ok);
  assert.equal(read.value.home, 'staging');
  assert.deepEqual([...read.value.environments.keys()], ['staging', 'production']);
  assert.deepEqual(read.value.environments.get('production'), {
    connection: 'Production',
    variables: { baseUrl: 'OBS_PRODUCTION_BASE_URL', key: 'OBS_PRODUCTION_CONFIG_KEY' },
    datasets: { checkout: 'checkout-prod' },
    recipients: [{ from: { type: 'slack', target: '#alerts-staging' }, to: { type: 'slack', target: '#alerts' } }],
    triggers: { all: { Uptime: { disabled: true } } },
  });
});

test('a member the file does not know is named by its place, not ignored', () => {
  const found = problems(file({ production: { dataset: { checkout: 'checkout-prod' } } }));
  assert.deepEqual(
    found.map((p) => p.path),
    [['environments', 'production']],
  );
  assert.match(found[0]?.message ?? '', /dataset/);
});

test('a home that names no environment is refused, the environments listed', () => {
  assert.deepEqual(problems(file({ production: {} }, 'prod')), [
    { path: ['home'], message: 'home must name one of the environments (staging, production)' },
  ]);
});

test('the home environment may not have an overlay: the files are what it holds', () => {
  const text = JSON.stringify({ home: 'staging', environments: { staging: { datasets: { a: 'b' } } } });
  assert.deepEqual(problems(text), [
    {
      path: ['environments', 'staging', 'datasets'],
      message: 'the home environment is what the files hold: it has no datasets of its own',
    },
  ]);
});

test('two datasets mapped to one slug are refused at the second', () => {
  assert.deepEqual(problems(file({ production: { datasets: { checkout: 'shop', orders: 'shop' } } })), [
    {
      path: ['environments', 'production', 'datasets', 'orders'],
      message: 'orders and checkout are both mapped to shop',
    },
  ]);
});

test('a recipient mapped twice, and two recipients mapped to one, are refused', () => {
  const a = { type: 'slack', target: '#a' };
  const b = { type: 'slack', target: '#b' };
  const c = { type: 'email', target: 'c@example.com' };
  assert.deepEqual(
    problems(
      file({
        production: {
          recipients: [
            { from: a, to: b },
            { from: a, to: c },
          ],
        },
      }),
    ),
    [{ path: ['environments', 'production', 'recipients', 1], message: 'slack "#a" is mapped twice' }],
  );
  assert.deepEqual(
    problems(
      file({
        production: {
          recipients: [
            { from: a, to: c },
            { from: b, to: c },
          ],
        },
      }),
    ),
    [
      {
        path: ['environments', 'production', 'recipients', 1],
        message: 'slack "#b" and slack "#a" are both mapped to email "c@example.com"',
      },
    ],
  );
});

test('the environment-wide dataset given both as all and __all__ is refused', () => {
  const found = problems(file({ production: { triggers: { all: { A: {} }, __all__: { B: {} } } } }));
  assert.deepEqual(found, [
    {
      path: ['environments', 'production', 'triggers', '__all__'],
      message: '__all__ is the environment-wide dataset, already given',
    },
  ]);
});

test('an environment name that is not lower-case letters, digits, - or _ is refused', () => {
  const found = problems(file({ Production: {} }));
  assert.deepEqual(
    found.map((p) => p.path),
    [['environments', 'Production']],
  );
});

test('a variable holding a value rather than a name is refused', () => {
  const found = problems(file({ production: { variables: { baseUrl: 'https://api.example.com', key: 'KEY' } } }));
  assert.deepEqual(found, [
    {
      path: ['environments', 'production', 'variables', 'baseUrl'],
      message: 'a variable name: letters, digits and _',
    },
  ]);
});

test('text that is not JSON is one problem at the root', () => {
  const found = problems('{ "home": ');
  assert.equal(found.length, 1);
  assert.deepEqual(found[0]?.path, []);
  assert.match(found[0]?.message ?? '', /^not valid JSON/);
});
