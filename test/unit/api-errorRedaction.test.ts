// A key the service echoes back in an error body never reaches the ServiceError, whichever of the three
// body shapes carries it and in whichever member: every string of the error (message, title, detail, code,
// type, each field problem's field, message, code and JSON pointer) has passed the redactor, a pointer before a
// field is made from it. The key is found in any case, JSON-pointer-escaped and in base64 too (either alphabet,
// padded or not, alone or inside a longer base64 text), while ordinary text stays as it was.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { ServiceClient, ServiceError } from '../../src/api';
import {
  CONFIG_KEY,
  MANAGEMENT_KEY,
  MGMT_KEY_ID,
  MGMT_KEY_SECRET,
  failure,
  makeClient,
  startServer,
  type TestServer,
} from './api-helpers';
import { createKeyBody } from './api-fixtures';

/** The credentials the client holds: the ones it can know to redact. */
const KNOWN = [CONFIG_KEY, MANAGEMENT_KEY, MGMT_KEY_ID, MGMT_KEY_SECRET];

let server: TestServer;
let client: ServiceClient;
let reply = { contentType: 'application/json', body: '{}' };

before(async () => {
  server = await startServer((_req, res: ServerResponse) => {
    res.writeHead(400, { 'content-type': reply.contentType });
    res.end(reply.body);
  });
  client = makeClient(server.url);
});
after(async () => {
  await client.close();
  await server.close();
});

/** Every string reachable from the error: its message and stack, and each member, however deep. */
function stringsOf(err: ServiceError): string[] {
  const out = [err.message, String(err.stack)];
  const stack: unknown[] = [{ ...err }];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null) for (const [k, member] of Object.entries(v)) stack.push(k, member);
  }
  return out;
}

/** Which known secrets appear in which strings of the error (empty when redaction held). */
function leaks(err: ServiceError): string[] {
  return stringsOf(err).flatMap((s) =>
    KNOWN.filter((k) => s.includes(k)).map((k) => `${k.slice(0, 6)}… in ${JSON.stringify(s.slice(0, 80))}`),
  );
}

async function errorFor(contentType: string, body: unknown, call: () => Promise<unknown>): Promise<ServiceError> {
  reply = { contentType, body: JSON.stringify(body) };
  return failure(call());
}

const listColumns = () => client.listColumns('api');
const createKey = () => client.createApiKey('acme', createKeyBody);

test('a key echoed in a legacy {error} body is redacted', async () => {
  for (const key of KNOWN) {
    const err = await errorFor('application/json', { error: `unknown key ${key}` }, listColumns);
    assert.equal(err.detail, 'unknown key [redacted]');
    assert.deepEqual(leaks(err), []);
  }
});

test('a key echoed in every member of a problem+json body, type_detail included, is redacted', async () => {
  for (const key of KNOWN) {
    const err = await errorFor(
      'application/problem+json',
      {
        type: `https://api.example.com/problems/${key}`,
        title: `title ${key}`,
        status: 400,
        detail: `detail ${key}`,
        error: `error ${key}`,
        type_detail: [{ field: `field.${key}`, code: `code/${key}`, description: `description ${key}` }],
      },
      listColumns,
    );
    assert.deepEqual(err.fieldProblems, [
      { field: 'field.[redacted]', code: 'code/[redacted]', message: 'description [redacted]' },
    ]);
    assert.equal(err.type, 'https://api.example.com/problems/[redacted]');
    assert.deepEqual(leaks(err), []);
  }
});

test('a key echoed in every member of a JSON:API error, source.pointer, header and parameter included, is redacted', async () => {
  for (const key of KNOWN) {
    const err = await errorFor(
      'application/vnd.api+json',
      {
        errors: [
          {
            id: key,
            status: '400',
            code: `code/${key}`,
            title: `title ${key}`,
            detail: `detail ${key}`,
            source: { pointer: `/data/attributes/${key}` },
          },
          { code: `code/${key}`, title: `title ${key}`, source: { header: `X-Key-${key}` } },
          { detail: `detail ${key}`, source: { parameter: `filter[${key}]` } },
        ],
      },
      createKey,
    );
    assert.deepEqual(err.fieldProblems, [
      {
        field: 'data.attributes.[redacted]',
        code: 'code/[redacted]',
        message: 'detail [redacted]',
        pointer: '/data/attributes/[redacted]',
      },
      { field: 'header X-Key-[redacted]', code: 'code/[redacted]', message: 'title [redacted]' },
      { field: 'parameter filter[[redacted]]', message: 'detail [redacted]' },
    ]);
    assert.deepEqual(leaks(err), []);
  }
});

test('a key written with JSON escapes in the body is redacted too (redaction reads the parsed text)', async () => {
  const escaped = `\\u${CONFIG_KEY.charCodeAt(0).toString(16).padStart(4, '0')}${CONFIG_KEY.slice(1)}`;
  reply = {
    contentType: 'application/vnd.api+json',
    body: `{"errors":[{"title":"bad","source":{"pointer":"/data/${escaped}"}}]}`,
  };
  const err = await failure(createKey());
  assert.deepEqual(err.fieldProblems, [{ field: 'data.[redacted]', message: 'bad', pointer: '/data/[redacted]' }]);
  assert.deepEqual(leaks(err), []);
});

// --- a key in a JSON pointer: "/" separates its parts, "~1" and "~0" stand for "/" and "~" -------------------

/** The error of a client holding `configKey`, for a JSON:API error whose source.pointer is `pointer`. */
async function pointerErrorFor(configKey: string, pointer: string): Promise<ServiceError> {
  const keyed = makeClient(server.url, { configKey });
  try {
    return await errorFor('application/vnd.api+json', { errors: [{ title: 'bad', source: { pointer } }] }, () =>
      keyed.listColumns('api'),
    );
  } finally {
    await keyed.close();
  }
}

test('a key holding "/" or "~1", echoed as written in a source.pointer, is redacted before the pointer is split into a field', async () => {
  // Split first, "cfg/KEY" became "cfg.KEY" and "cfg~1KEY" became "cfg/KEY": neither is the key any more.
  for (const key of ['cfg/KEY-7f3a9c1e', 'cfg~1KEY-7f3a9c1e']) {
    const err = await pointerErrorFor(key, `/data/attributes/${key}`);
    assert.deepEqual(
      err.fieldProblems,
      [{ field: 'data.attributes.[redacted]', message: 'bad', pointer: '/data/attributes/[redacted]' }],
      key,
    );
  }
});

test('a key echoed JSON-pointer-escaped in a source.pointer ("~1" for "/", "~0" for "~") is redacted in the pointer and the field', async () => {
  const err = await pointerErrorFor('cfg/KEY~7f3a9c1e', '/data/attributes/cfg~1KEY~07f3a9c1e');
  assert.deepEqual(err.fieldProblems, [
    { field: 'data.attributes.[redacted]', message: 'bad', pointer: '/data/attributes/[redacted]' },
  ]);
});

// --- the key's other forms: any case, base64 -----------------------------------------------------------------

const base64 = (text: string): string => Buffer.from(text).toString('base64');
const swapCase = (text: string): string =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** A configuration key whose base64 holds `+`, `/` and padding, so its four base64 forms all differ. */
const KEY_WITH_SIGNS = 'key???>>>0a1b2c3d';

test('a key echoed upper-cased, lower-cased or with its case swapped is redacted', async () => {
  for (const key of KNOWN) {
    for (const form of [key.toUpperCase(), key.toLowerCase(), swapCase(key)]) {
      const err = await errorFor('application/json', { error: `unknown key ${form}` }, listColumns);
      assert.equal(err.detail, 'unknown key [redacted]', form);
    }
  }
});

test('a key echoed in base64, standard or URL alphabet, padded or not, is redacted', async () => {
  const signs = makeClient(server.url, { configKey: KEY_WITH_SIGNS });
  try {
    for (const form of [
      'a2V5Pz8/Pj4+MGExYjJjM2Q=',
      'a2V5Pz8/Pj4+MGExYjJjM2Q',
      'a2V5Pz8_Pj4-MGExYjJjM2Q=',
      'a2V5Pz8_Pj4-MGExYjJjM2Q',
    ]) {
      const err = await errorFor('application/json', { error: `unknown key ${form}` }, () => signs.listColumns('api'));
      assert.equal(err.detail, 'unknown key [redacted]', form);
    }
  } finally {
    await signs.close();
  }
  for (const key of KNOWN) {
    const err = await errorFor('application/json', { error: `unknown key ${base64(key)}` }, listColumns);
    assert.equal(err.detail, 'unknown key [redacted]', key);
  }
});

test('Basic credentials of the management key (KEY_ID:KEY_SECRET in base64) echoed in a header are redacted whole', async () => {
  const err = await errorFor(
    'application/json',
    { error: `bad header Authorization: Basic ${base64(MANAGEMENT_KEY)}` },
    createKey,
  );
  assert.equal(err.detail, 'bad header Authorization: Basic [redacted]');
});

test('a key inside a longer base64 text is redacted at each of the three offsets a 3-byte group allows', async () => {
  // What stays encodes the neighbouring bytes, with at most one character at each end holding a few bits of the key.
  const cases: [string, string][] = [
    [`a:${CONFIG_KEY}`, 'YTp[redacted]A=='],
    [`ab:${CONFIG_KEY}x`, 'YWI6[redacted]B4'],
    [`abc:${CONFIG_KEY}xy`, 'YWJjOm[redacted]eHk='],
  ];
  for (const [text, left] of cases) {
    const err = await errorFor('application/json', { error: base64(text) }, listColumns);
    assert.equal(err.detail, left, text);
  }
});

test('two keys echoed overlapping, the end of one the start of the other, are both redacted', async () => {
  const overlapping = makeClient(server.url, {
    configKey: 'cfgKEY-7f3a9c1e',
    managementKey: '9c1e5b2d-id:secret-0a1b2c3d',
  });
  try {
    const err = await errorFor('application/json', { error: 'keys cfgKEY-7f3a9c1e5b2d-id end' }, () =>
      overlapping.listColumns('api'),
    );
    assert.equal(err.detail, 'keys [redacted] end');
  } finally {
    await overlapping.close();
  }
});

test('ordinary text, in any case and in base64, is left as it was', async () => {
  const text = `Unknown KEY in header X-Service-Team or Authorization: Bearer; ${base64('hello world, nothing secret here')} İstanbul straße [redacted]`;
  const err = await errorFor('application/json', { error: text }, listColumns);
  assert.equal(err.detail, text);
});

test('a key after a character whose lower case is longer (U+0130) is redacted in place', async () => {
  const err = await errorFor('application/json', { error: `İİ ${CONFIG_KEY.toUpperCase()} end` }, listColumns);
  assert.equal(err.detail, 'İİ [redacted] end');
});

test('a 4-character key is redacted as itself and in base64, but base64 holding a fragment of it shorter than 8 characters is left', async () => {
  const short = makeClient(server.url, { configKey: 'Wxyz' });
  try {
    const redacted = await errorFor('application/json', { error: `keys WXYZ ${base64('Wxyz')} V3h5eg` }, () =>
      short.listColumns('api'),
    );
    assert.equal(redacted.detail, 'keys [redacted] [redacted] [redacted]');
    // The base64 of "Wxyx" begins with "V3h5e", the 5 characters that encode the key's first 3 bytes.
    const left = await errorFor('application/json', { error: `word ${base64('Wxyx')}` }, () =>
      short.listColumns('api'),
    );
    assert.equal(left.detail, 'word V3h5eA==');
  } finally {
    await short.close();
  }
});
