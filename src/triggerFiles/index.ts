// Triggers as code: the canonical trigger file (normalize), where files lie, pull and drift. Used by the
// CLI and the extension; no vscode import anywhere in this folder.
export { canonicalDatasetSlug, normalize, triggerFileText, TRIGGER_DEFAULTS, TRIGGER_FILE_MEMBERS, type NormalizeOptions } from './normalize';
export { datasetFolder, pathKey, sanitizeFileSegment, triggerFileName, triggerRelativePath, TRIGGER_FILE_SUFFIX } from './paths';
export { MAX_NESTING, nestedDeeperThan, nestingProblem, textNestedDeeperThan, TriggerTooDeep } from './depth';
export { compareTriggers, differenceText, differingMembers, sameJson, valueText, type Difference } from './compare';
export { readTriggerFile, withoutIds, type LocalFile, type LocalTrigger } from './localFiles';
export {
  datasetOf,
  datasetsOfFiles,
  driftCounts,
  driftOfFile,
  onlyOnService,
  ServiceIndex,
  type DatasetListing,
  type DriftCounts,
  type DriftStatus,
  type FileDrift,
  type ServiceTrigger,
  type TriggerDrift,
} from './drift';
export { serviceChangesSince, type ServiceChanges } from './changedSince';
export { collectTriggers, listDatasets, listingSegment, type Collected, type PullItem, type TriggerLister } from './listing';
export { APPEARED, applyPull, planPull, pullSummary, type ApplyOptions, type PullAction, type PullReport } from './pull';
export { scanExisting, type ExistingFile } from './scan';
export { type DirEntry, type EntryKind, type PullFileSystem } from './pullFs';
export { placeIn, realPathOf, within, type Placement } from './contained';
export { PacedPool, PullCancelled, sleepUnlessAborted, type Paced, type PacedPoolOptions } from './pool';
export {
  expectedAfterWrite,
  keyFingerprint,
  makePlan,
  planCounts,
  planSeal,
  prunes,
  sameKey,
  sealMatches,
  serviceVersion,
  sha256,
  storedDifferently,
  unchangedSince,
  writeBody,
  type BlockedTrigger,
  type KeyFingerprint,
  type Plan,
  type PlanCounts,
  type PlanFile,
  type PlanInput,
  type PlanInputs,
  type PlannedChange,
  type PlanScope,
  type PlanTarget,
  type ServiceVersion,
} from './plan';
export { applyChanges, type ApplyChangesOptions, type ChangeResult, type TriggerWriter } from './apply';
export { idEdit, withId, type TextEdit } from './fileId';
export { DEFAULT_MAX_BYTES, readRegularFile, ReadProblem } from './regularFile';
export { planWithGates, scoped, type GatedPlan, type PlanLinter, type PlanRequest, type PlanService, type PlanSource } from './planPipeline';
export { planDifferences } from './planReview';
