// How a refusal or failure the service answers with reads for people: what went wrong in words, what the
// service said, and what to do; never a bare status line ("HTTP 422" tells nobody what to do). The status
// itself stays on the error (`ServiceError.status`) for the code that decides on it and for the log.
// English, like every message of the client: a host names the operation around it in its own language.

/** What a status means, and what to do about it. */
interface Reading {
  what: string;
  todo: string;
}

const AGAIN_LATER = 'Try again later';
const CHECK_NAME = 'Check the name or id: it may have been deleted or renamed';
const CHECK_ADDRESS = "Check that the address is the service's API";

function readingOf(status: number): Reading {
  switch (status) {
    case 400:
      return { what: 'the service could not take the request', todo: 'Correct what it names and try again' };
    case 401:
      return { what: 'the service did not accept the key', todo: 'Check that the key is right and not revoked' };
    case 403:
      return { what: 'the key lacks the permission for this', todo: 'Use a key that has this permission' };
    case 404:
      return { what: 'the service has no such object', todo: CHECK_NAME };
    case 409:
      return { what: 'it conflicts with what the service holds now', todo: 'Read it again from the service and retry' };
    case 413:
      return { what: 'the request is larger than the service takes', todo: 'Make it smaller and try again' };
    case 415:
      return { what: 'the service does not take requests of this kind', todo: CHECK_ADDRESS };
    case 422:
      return { what: 'the service refused the values sent', todo: 'Correct what it names and try again' };
    case 429:
      return { what: 'the service asks to slow down: too many requests', todo: 'Wait a minute and try again' };
    case 500:
      return { what: 'the service failed', todo: AGAIN_LATER };
    case 502:
      return { what: 'a gateway in front of the service got no good answer from it', todo: AGAIN_LATER };
    case 503:
      return { what: 'the service is unavailable', todo: AGAIN_LATER };
    case 504:
      return { what: 'a gateway in front of the service timed out waiting for it', todo: AGAIN_LATER };
    default:
      return status >= 500
        ? { what: 'the service failed', todo: AGAIN_LATER }
        : { what: 'the service refused the request', todo: 'Check what it names and try again' };
  }
}

/** The text without the full stop it may end with: a sentence follows. */
const unstopped = (text: string): string => text.replace(/[.\s]+$/, '');

/**
 * "create trigger failed: the service refused the values sent. The service said: threshold: must be a number.
 * Correct what it names and try again." `said` is what the service's error body says (already redacted);
 * `answeredBy` names another kind of answer than the service's (a web page in its place).
 */
export function httpFailureMessage(
  operation: string,
  status: number,
  said: string | undefined,
  answeredBy?: string,
): string {
  const { what, todo } = readingOf(status);
  if (answeredBy !== undefined && status < 500) {
    // Not the service's answer: what its status would mean coming from the service is beside the point.
    const notService = `${operation} failed: the answer was ${answeredBy}, not the service's`;
    return `${notService}. ${CHECK_ADDRESS} (a proxy in front of it may have answered).`;
  }
  const parts = [`${operation} failed: ${what}`];
  if (answeredBy !== undefined) parts.push(`The answer was ${answeredBy}, not the service's`);
  const words = said === undefined ? '' : unstopped(said);
  if (words !== '') parts.push(`The service said: ${words}`);
  parts.push(todo);
  return `${parts.join('. ')}.`;
}
