// What other features may use of triggers as code: the editor's plan of trigger files against a connection
// (the one plan pipeline, with the gates of `obs plan`), its paced writes and id write-back, and the
// plan's text and question as the editor's Apply shows them. All vscode-free; the agents' apply tool uses them.
export { pacedWriter, planForConnection, type Linter, type WritingClient } from './applyPlan';
export { idNotWritten, idWriter, type IdDocuments } from './applyIdWrite';
export { changeLabel, confirmation, planCountsText, planDocumentText, visible } from './applyPlanText';
// The Datasets tree shows drift on its trigger rows: these are the states it is handed (extension.ts wires it).
export type { TreeDriftSource, TriggerFileState } from './treeDrift';
// A workspace folder's environments file as Apply reads it: the agents' plan reads it so too.
export type { FolderEnvironments } from './applyDestination';
