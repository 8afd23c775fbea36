// What other features may use of triggers as code: the editor's plan of trigger files against a connection
// (the gates of `obs plan`), its check of files changed since, its paced writes and id write-back, and the
// plan's text and question as the editor's Apply shows them. All vscode-free; the agents' apply tool uses them.
export { changedSincePlan, pacedWriter, planForConnection, type ConnectionPlan, type Linter, type PlanScope, type SourceFile } from './applyPlan';
export { idWriter, type EditorFileState, type IdDocuments } from './applyIdWrite';
export { confirmation, planCountsText, planDocumentText } from './applyPlanText';
