// The words the results panel's host side says about restoring a panel and about a preview that failed.
// One place, so they can be translated later. No vscode import.

export const RESULTS_TEXT = {
  restoredTitle: 'Query Results',
  stateDamaged:
    'This panel could not be restored after the window reload: its saved state is missing or damaged. Run the query or the preview again.',
  tooLargeToKeep: 'This result was too large to keep across a window reload. Run Again to see it.',
  connectionGone: 'The connection of this result no longer exists, so it cannot be run again.',
  previewTitle: (name: string) => `Preview: ${name}`,
} as const;
