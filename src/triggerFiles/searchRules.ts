// Where no search for trigger files and tests looks, in the CLI and the editor alike: installed packages
// (node_modules) and dot folders (.git, .vscode, .github...). The CLI's wildcards skip dot folders as shells
// do, so a path that names one is still read; the editor's searches exclude them with the same rule.

/** Whether a path segment is a folder no search enters. */
export const isSkippedFolder = (segment: string): boolean => segment === 'node_modules' || segment.startsWith('.');
/** What the CLI's globs ignore besides the dot folders their wildcards skip. */
export const SKIPPED_BY_GLOBS = ['**/node_modules/**'];
/** The exclude pattern of the editor's searches (VS Code's `**` enters dot folders). */
export const SKIPPED_BY_SEARCHES = '{**/node_modules/**,**/.*/**}';
