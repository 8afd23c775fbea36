// What `obs test` says on the standard error while it waits for the service's limit of 10 queries a minute.

/**
 * Progress for the standard error: only the waits for the rate limit, each said once when it starts
 * (the pacer counts a wait down every second), as `waiting 23 s: the service runs at most 10 queries a minute`.
 */
export function onceEachWait(say: (message: string) => void): (progress: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (progress) => {
    const wait = /^Waiting (\d+) s: /.exec(progress);
    const seconds = wait ? Number(wait[1]) : Number.NEGATIVE_INFINITY;
    if (wait && seconds >= last) say(progress.replace(/^Waiting/, 'waiting').replace(/\.\.\.$/, ''));
    last = seconds;
  };
}
