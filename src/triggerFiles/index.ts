// Triggers as code: the canonical trigger file (normalize), where files lie, pull and drift. Used by the
// CLI and the extension; no vscode import anywhere in this folder.
export { canonicalDatasetSlug, normalize, triggerFileText } from './normalize';
export { pathKey, triggerFileName, TRIGGER_FILE_SUFFIX } from './paths';
export { SKIPPED_BY_SEARCHES } from './searchRules';
export { MAX_NESTING, nestedDeeperThan, textNestedDeeperThan, TriggerTooDeep } from './depth';
export { compareTriggers, differenceText, differingMembers, valueText, type Difference } from './compare';
export { readTriggerFile, withoutIds, type LocalFile } from './localFiles';
export {
  datasetOf,
  datasetsOfFiles,
  driftCounts,
  driftOfFile,
  onlyOnService,
  ServiceIndex,
  type DatasetListing,
  type DriftCounts,
  type FileDrift,
  type ServiceTrigger,
  type TriggerDrift,
} from './drift';
export { identities, serviceChangesSince } from './changedSince';
export { collectTriggers, listDatasets, type PullItem, type TriggerLister } from './listing';
export { APPEARED, applyPull, planKindPull, planPull, pullSummary, type PullAction, type PullReport } from './pull';
export { scanExisting, scanFolders, scanRoot, type ExistingFile } from './scan';
export { BURN_ALERT_PULL, collectBurnAlerts, collectDefinitions, planDefinitionsPull } from './sloPull';
export { BURN_ALERT_FILE_SUFFIX, burnAlertFileText, normalizeBurnAlert, type BurnAlertItem } from './burnAlertFile';
export {
  DEFINITIONS_FILE_SUFFIX,
  definitionsFileText,
  normalizeDefinitions,
  type DefinitionsItem,
} from './definitionsFile';
export { type EntryKind, type PullFileSystem } from './pullFs';
export { within } from './contained';
export { PacedPool, PullCancelled } from './pool';
export {
  expectedAfterWrite,
  keyFingerprint,
  makePlan,
  planCounts,
  sameKey,
  serviceVersion,
  sha256,
  storedDifferently,
  writeBody,
  type BlockedTrigger,
  type Plan,
  type PlanFile,
  type PlanInput,
  type PlanInputs,
  type PlannedChange,
  type PlanScope,
  type PlanTarget,
  type TriggerChange,
} from './plan';
export { planSeal, sealMatches } from './planSeal';
export { applyChanges, type ChangeResult, type FailureCause, type TriggerWriter } from './apply';
export { kindOfFile, type PlanKind } from './planKinds';
export { idEdit, withId, type TextEdit } from './fileId';
export {
  planWithGates,
  sloFilesOf,
  type GatedPlan,
  type PlanLinter,
  type PlanService,
  type PlanSource,
} from './planPipeline';
export { sloChangesSince, sloDrift, sloFileDrift, withSloCounts, type SloFileDrift } from './sloDrift';
export {
  compareEachSloFile,
  sloHoldsReference,
  sloObjectKey,
  withoutAmbiguity,
  type SloCompared,
  type SloPlanFile,
  type SloReads,
} from './sloPlan';
export { changeKey, planDifferences, reviewPlan, withoutChanges } from './planReview';
// Compare with Service on burn alert and definitions files, and what it reads with.
export { type SloReader } from './sloPull';
export { burnAlertServiceText, definitionsServiceText, type NotComparable } from './sloServiceText';
export { type PlanEnvironment } from './environmentPlan';
export { KeptSloReads, type SavedSlo } from './keptSloReads';
export {
  filesHoldReference,
  listTeam,
  TeamRecipients,
  withReferencesResolved,
  type KeptById,
  type RecipientLister,
} from './recipientRefs';
export { burnAlertsByTarget, keptByIdText, triggersByTarget, type PullRecipients } from './pullRecipients';
