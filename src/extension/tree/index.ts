// What other features may use of the tree: node types and the parsers of tree items given to commands
// (vscode-free). The view and the model are handed out at activation (extension.ts).
export { ApiKeyArg, ApiKeysArg, BurnAlertArg, DatasetArg, parseArg, TriggerArg } from './commandArgs';
export type { KeyRegistry } from './keyRegistry';
