// Text from the service or the user, as a page shows it: bidi controls (a right-to-left override turns a
// name around, Trojan Source) and other control characters (ESC, NUL...) become visible escapes such as
// "[U+202E]", so a hostile name is seen for what it is and cannot reorder what follows it. The same rule
// as the Datasets view's (which shows U+FFFD): every webview page applies it to what it draws
// (shared/dom.ts), the host to the notice page. No DOM, no vscode import: pages and host share it.

// Bidi embedding, override and isolate controls, the marks, the Arabic letter mark.
const BIDI = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
// C0 and C1 controls but tab and line breaks, which show as white space.
const OTHER = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F';
const CONTROLS = new RegExp(`[${BIDI}${OTHER}]`, 'gu');
const ANY_CONTROL = new RegExp(`[${BIDI}${OTHER}]`, 'u');

/** True when `text` holds a character visibleControls() would replace. */
export function hasControls(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/** `text` with each bidi or control character replaced by its code point, in brackets: "[U+202E]". */
export function visibleControls(text: string): string {
  if (!hasControls(text)) return text;
  return text.replace(CONTROLS, (c) => `[U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`);
}
