// The backtest engine's API: trigger test files (read, located), their run against a service (paced,
// cancellable, results reused within a session) and its outcomes; and the evaluation the preview shares.
// For the CLI (`obs test`) and the editor (Test Explorer), with the recordings that let a test run without
// the service. No vscode import.
export {
  prepareTrigger,
  runTriggerTests,
  erroredOutcomes,
  savedQueriesOf,
  tally,
  type ExpectationOutcome,
  type ExpectationStatus,
  type Tally,
  type TestedTrigger,
} from './backtest';
export { ResultCache, type ResultStore } from './cache';
export { CreationPacer, CREATIONS_PER_MINUTE, systemClock, type QueryApi, type RunnerClock } from './runner';
export { parseTestFile, TriggerTestFile, TRIGGER_TEST_SCHEMA_PATH } from './testFile';
export {
  isTriggerTestFile,
  recordingPathFor,
  triggerPathFor,
  TRIGGER_RECORDING_SUFFIX,
  TRIGGER_TEST_SUFFIX,
} from './testPaths';
export { readTime, utcSpan } from './times';
export { RecordedNotes, recordedQueryApi, recordedWindowFor, type RecordNote } from './playback';
export {
  parseRecording,
  recordingText,
  recordingUpdate,
  TRIGGER_RECORDING_SCHEMA_PATH,
  type FreshRecording,
  type RecordedWindow,
  type RecordingUpdate,
  type TriggerTestRecording,
} from './recordingFile';
