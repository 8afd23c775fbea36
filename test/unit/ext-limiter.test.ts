import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Limiter, retryAfterOf } from '../../src/api/limiter';
import { ServiceError } from '../../src/api/errors';

const rateLimited = (retryAfterMs: number): ServiceError =>
  new ServiceError({
    kind: 'http',
    operation: 'list columns',
    status: 429,
    message: 'list columns failed: HTTP 429 rate limited',
    retryAfterMs,
  });

test('no more than `concurrency` operations run at once', async () => {
  const limiter = new Limiter({ concurrency: 3 });
  let running = 0;
  let peak = 0;
  const op = async (): Promise<void> => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5));
    running--;
  };
  await Promise.all(Array.from({ length: 20 }, () => limiter.run(op)));
  assert.equal(peak, 3);
});

test('a rate-limit error with retryAfterMs pauses and retries the operation', async () => {
  const slept: number[] = [];
  let now = 1000;
  const limiter = new Limiter({
    concurrency: 2,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  });
  let calls = 0;
  const result = await limiter.run(async () => {
    if (++calls === 1) throw rateLimited(2500);
    return 'ok';
  });
  assert.equal(result, 'ok');
  assert.deepEqual(slept, [2500]);
});

test('rate-limit retries are bounded; the last error is thrown', async () => {
  const limiter = new Limiter({ concurrency: 1, rateLimitRetries: 2, sleep: async () => {} });
  let calls = 0;
  await assert.rejects(
    limiter.run(async () => {
      calls++;
      throw rateLimited(10);
    }),
    /HTTP 429/,
  );
  assert.equal(calls, 3);
});

test('errors other than rate limits are not retried', async () => {
  const limiter = new Limiter({ concurrency: 1 });
  let calls = 0;
  await assert.rejects(
    limiter.run(async () => {
      calls++;
      throw new ServiceError({ kind: 'http', operation: 'x', status: 500, message: 'x failed' });
    }),
  );
  assert.equal(calls, 1);
});

test('a waiting operation is dropped when its signal aborts', async () => {
  const limiter = new Limiter({ concurrency: 1 });
  let release: (() => void) | undefined;
  const first = limiter.run(() => new Promise<void>((r) => (release = r)));
  const controller = new AbortController();
  let secondRan = false;
  const second = limiter.run(async () => {
    secondRan = true;
  }, controller.signal);
  controller.abort();
  await assert.rejects(second, /cancelled/);
  release?.();
  await first;
  assert.equal(secondRan, false);
});

test('retryAfterOf reads only rate-limit errors', () => {
  assert.equal(retryAfterOf(rateLimited(1234)), 1234);
  assert.equal(
    retryAfterOf(new ServiceError({ kind: 'http', operation: 'x', status: 503, message: 'm', retryAfterMs: 10 })),
    undefined,
  );
  assert.equal(retryAfterOf(new Error('x')), undefined);
});
