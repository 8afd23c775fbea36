// The lock file that keeps two applies in one folder apart (applyFiles.ts takes it; apply.ts names it in
// its help), apart from both so that declaring `obs apply` loads nothing of the apply.

export const LOCK_FILE = '.obs-apply.lock';
