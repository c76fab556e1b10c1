/**
 * The one error-to-reply mapper of actions. A handler's answers thrown on purpose (a guard's 403, a 404, a
 * redirect: a `Response`, or what Remix's `data()` builds) pass through unchanged; an error the caller knows
 * becomes its reply; anything else is logged and becomes the caller's failure reply.
 */

/** Whether a thrown value is an answer on purpose (`throw redirect(…)`, `throw data(…, { status })`). */
export function isThrownReply(e: unknown): boolean {
  if (e instanceof Response) return true;
  // `data()` returns Remix's DataWithResponseInit (not exported by @remix-run/node): it carries this type tag.
  return typeof e === "object" && e !== null && (e as { type?: unknown }).type === "DataWithResponseInit";
}

export async function replyOnError<T>(run: () => Promise<T>, options: { known?: (e: unknown) => T | undefined; failed: () => T | Promise<T> }): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isThrownReply(e)) throw e;
    const known = options.known?.(e);
    if (known !== undefined) return known;
    console.error(e);
    return options.failed();
  }
}
