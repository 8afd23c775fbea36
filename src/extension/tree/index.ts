// What other features may use of the tree: node types and the parsers of tree items given to commands
// (vscode-free). The view and the model are handed out at activation (extension.ts).
export { ApiKeyArg, ApiKeysArg, DatasetArg, parseArg } from './commandArgs';
export type { KeyRegistry } from './keyRegistry';

/** The parsers of a trigger's and a burn alert's item, with the API's schemas they need, built when first asked for. */
export const loadItemArgs = (): Promise<typeof import('./itemArgs')> => import('./itemArgs');
