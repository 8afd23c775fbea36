// What obs prints comes partly from files and the service: a trigger's name, a dataset slug, a
// message quoting a value. A terminal acts on some characters instead of showing them (ESC starts a
// sequence that can set the window title or redraw a line, CR returns to the start of the line, LF
// starts a line that looks like obs's own) and hides or reorders others (bidi controls such as
// U+202E, zero-width characters). Every such character is printed as a visible escape instead.

/**
 * Control characters (C0, DEL, C1), format characters (bidi controls U+202A-202E, U+2066-2069,
 * U+200E/F, U+061C; zero-width and other invisible ones), line and paragraph separators, and lone
 * surrogates.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** The text with every hidden character written as `\u{…}` (ESC as `\u{1b}`, LF as `\u{a}`); the rest as is. */
export function visible(text: string): string {
  return text.replace(HIDDEN, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

/** What JSON.stringify leaves raw of HIDDEN: DEL, C1, format characters, U+2028/9 (it escapes C0 and lone surrogates). */
const HIDDEN_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * JSON of the value in which the hidden characters JSON.stringify leaves raw are `\uXXXX` escapes
 * too: the same value once parsed, and safe to print. (Outside strings JSON text is ASCII, so every
 * match lies inside a string, where an escape is exact.) A `[` after `##` is `\u005b` as well: GitHub's
 * runner reads `##[` anywhere in a line of a step's log as a command, and JSON has no `#` outside strings.
 */
export function visibleJson(value: unknown, space = 2): string {
  return JSON.stringify(value, null, space)
    .replace(HIDDEN_IN_JSON, (c) =>
      [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
    )
    .replace(/##\[/g, '##\\u005b');
}
