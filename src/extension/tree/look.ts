// What a tree node looks like, as plain data: datasetsView.ts turns it into a vscode.TreeItem. No vscode import.
import type { Tooltip } from '../core/text';

export interface IconSpec {
  /** A codicon id. */
  id: string;
  /** A theme color id. */
  color?: string;
}

export interface Presentation {
  label: string;
  description?: string;
  icon?: IconSpec;
  tooltip?: Tooltip;
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  command?: { id: string; title: string; args: unknown[] };
}
