// Where trigger tests lie: `<name>.trigger-test.json`, by default beside the `<name>.trigger.json` it tests,
// and its recording beside it, `<name>.trigger-test.recording.json`. Neither suffix is `.json` after
// `.trigger`, so `**/*.trigger.json` never takes one for a trigger file; the extension's default trigger glob
// `**/triggers/**/*.json` would, and leaves them out by their suffixes (isTestSideFile). Small and without
// zod: the activation bundle reads it. No vscode import.
import { posix } from 'node:path';

export const TRIGGER_TEST_SUFFIX = '.trigger-test.json';
export const TRIGGER_RECORDING_SUFFIX = '.trigger-test.recording.json';
const TRIGGER_SUFFIX = '.trigger.json';

/** Whether a path (a file path or a URI's path, either separator) names a trigger test file. */
export function isTriggerTestFile(path: string): boolean {
  return path.toLowerCase().endsWith(TRIGGER_TEST_SUFFIX);
}

/** Whether a path names a file the trigger tests keep beside the triggers (a test file or a recording): never a trigger file. */
export function isTestSideFile(path: string): boolean {
  const lower = path.toLowerCase();
  return lower.endsWith(TRIGGER_TEST_SUFFIX) || lower.endsWith(TRIGGER_RECORDING_SUFFIX);
}

/** The recording of a test file, beside it: `x.trigger-test.json` has `x.trigger-test.recording.json`. */
export function recordingPathFor(testPath: string): string {
  const lower = testPath.toLowerCase();
  const base = lower.endsWith(TRIGGER_TEST_SUFFIX)
    ? testPath.slice(0, -TRIGGER_TEST_SUFFIX.length)
    : lower.endsWith('.json')
      ? testPath.slice(0, -'.json'.length)
      : testPath;
  return `${base}${TRIGGER_RECORDING_SUFFIX}`;
}

/**
 * The trigger file a test file tests, as a '/'-separated path: its `trigger` member resolved against the
 * test file's folder, or without one the file beside it with the same name (`x.trigger-test.json` tests
 * `x.trigger.json`); undefined for a file of another name without a `trigger` member.
 */
export function triggerPathFor(testPath: string, trigger: string | undefined): string | undefined {
  const path = testPath.split('\\').join('/');
  if (trigger === undefined)
    return isTriggerTestFile(path)
      ? `${path.slice(0, path.length - TRIGGER_TEST_SUFFIX.length)}${TRIGGER_SUFFIX}`
      : undefined;
  return posix.normalize(posix.join(posix.dirname(path), trigger.split('\\').join('/')));
}
