import { CodedError, customerTextOf, ERROR_CATALOGUE, type ErrorCode, type ErrorEntry } from "scrub-service/domain";

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

/** A form's reply to an error of the catalogue: the status, the dialog's title, the words and the field, if any. */
export interface FormError {
  code: ErrorCode;
  status: number;
  title: string;
  message: string;
  field?: string;
}

/** A conform submission's reply to a known error: on its field when it names one, else the form's error. */
export function submissionErrors(err: FormError): { fieldErrors: Record<string, string[]> } | { formErrors: string[] } {
  return err.field ? { fieldErrors: { [err.field]: [err.message] } } : { formErrors: [err.message] };
}

/**
 * The forms' one error mapper (decision 194): an error of the catalogue (the intake's, the plan's, the engine's)
 * by its entry; anything else null (the caller logs it and answers with its own failure).
 */
export function formErrorOf(e: unknown): FormError | null {
  if (!(e instanceof CodedError)) return null;
  const entry: ErrorEntry = ERROR_CATALOGUE[e.code];
  const field = e.options.field;
  return { code: e.code, status: entry.form, title: entry.title, message: customerTextOf(e), ...(field ? { field } : {}) };
}
