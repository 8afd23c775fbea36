// Exporting a trigger to a workspace file: the file's path, the same as a pull writes
// (src/triggerFiles/paths.ts). What goes in it is the canonical trigger file (triggerFiles/normalize.ts),
// written by the triggers-as-code bundle. No vscode import.
export { sanitizeFileSegment, triggerRelativePath as exportRelativePath } from '../../triggerFiles/paths';
