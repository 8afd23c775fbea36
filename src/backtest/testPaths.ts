// Where trigger tests lie: `<name>.trigger-test.json`, by default beside the `<name>.trigger.json` it tests.
// The suffix is not `.json` after `.trigger`, so `**/*.trigger.json` never takes a test file for a trigger
// file; the extension's default trigger glob `**/triggers/**/*.json` would, and leaves test files out by
// this suffix (isTriggerTestFile). Small and without zod: the activation bundle reads it. No vscode import.
import { posix } from 'node:path';

export const TRIGGER_TEST_SUFFIX = '.trigger-test.json';
const TRIGGER_SUFFIX = '.trigger.json';

/** Whether a path (a file path or a URI's path, either separator) names a trigger test file. */
export function isTriggerTestFile(path: string): boolean {
  return path.toLowerCase().endsWith(TRIGGER_TEST_SUFFIX);
}

/**
 * The trigger file a test file tests, as a '/'-separated path: its `trigger` member resolved against the
 * test file's folder, or without one the file beside it with the same name (`x.trigger-test.json` tests
 * `x.trigger.json`); undefined for a file of another name without a `trigger` member.
 */
export function triggerPathFor(testPath: string, trigger: string | undefined): string | undefined {
  const path = testPath.split('\\').join('/');
  if (trigger === undefined) return isTriggerTestFile(path) ? `${path.slice(0, path.length - TRIGGER_TEST_SUFFIX.length)}${TRIGGER_SUFFIX}` : undefined;
  return posix.normalize(posix.join(posix.dirname(path), trigger.split('\\').join('/')));
}
