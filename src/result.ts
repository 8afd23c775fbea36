// Failures as values, one shape everywhere: `ok` says which side, a failure says why in `reason`. The reason
// is a sentence for a person by default, or whatever the caller needs to say it (a list of problems, a reply
// to send). Errors that are not expected outcomes of the call stay exceptions (typed Error subclasses).
// Types only: importing this module loads nothing, so every layer and the webview pages may use it.

/** Why something did not work, as a value. */
export interface Failure<R = string> {
  ok: false;
  reason: R;
}

/** Either the success's own fields beside `ok: true`, or a Failure. */
export type Outcome<S extends object, R = string> = ({ ok: true } & S) | Failure<R>;
