// The id of an oversized MCP message, read as its bytes stream by: the top-level "id" member wherever it lies
// and however the bytes are cut into chunks; never an id nested in the params, an escaped name or a value that
// is no request id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestIdScanner } from '../../src/cli/mcpRequestId';

function idOf(...chunks: string[]): unknown {
  const scanner = new RequestIdScanner();
  for (const chunk of chunks) scanner.push(Buffer.from(chunk));
  return scanner.id;
}

test('the top-level id is found after the params, past ids, braces and escaped quotes inside them', () => {
  const message =
    '{"method":"tools/call","params":{"id":1,"text":"{\\"id\\": 2} }, \\"id\\":3","list":[{"id":4}]},"jsonrpc":"2.0","id":5}';
  assert.equal(idOf(message), 5);
});

test('the id is found however the message is cut into two chunks', () => {
  const message = '{ "jsonrpc" : "2.0", "id" : "req-\\u00e9\\"7", "method":"ping" }';
  for (let cut = 0; cut <= message.length; cut++) {
    assert.equal(idOf(message.slice(0, cut), message.slice(cut)), 'req-é"7', `cut at ${cut}`);
  }
});

test('a multi-byte character cut between chunks leaves a string id whole', () => {
  const bytes = Buffer.from('{"id":"ü"}');
  const scanner = new RequestIdScanner();
  scanner.push(bytes.subarray(0, 8));
  scanner.push(bytes.subarray(8));
  assert.equal(scanner.id, 'ü');
});

test('a duplicated id is read as JSON.parse reads it: the last one', () => {
  assert.equal(idOf('{"id":1,"method":"ping","id":2}'), 2);
});

test('no id is taken from an escaped name, a batch, a value that is no request id, or a message that is not an object', () => {
  for (const message of [
    '{"\\u0069d":1}',
    '{"idx":1,"i":2}',
    '[{"id":1}]',
    '{"id":1.5}',
    '{"id":null}',
    '{"id":{"a":1}}',
    '{"id":true}',
    '"id"',
    `{"id":"${'x'.repeat(300)}"}`,
  ]) {
    assert.equal(idOf(message), undefined, message);
  }
});

test('an id is known once its member ends, even when the rest of the message never comes', () => {
  assert.equal(idOf('{"id":9,"params":{"text":"aaaa'), 9);
  assert.equal(idOf('{"id":9'), undefined);
});
