import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { flashToast } from "~/utils/session.server";
import { formErrorOf } from "~/utils/action-reply.server";
import type { ListIntentOutcome } from "./list-form-action.server";

/**
 * The server side of the list dialogs (containers, exemption lists, DNC Management): the `{ intent, result }`
 * reply their forms read back (`useListResult`), and the one mapping of a list load's failure to a reply.
 */

export type ListReply = ReturnType<typeof listReply>;

export function listReply(intent: string, result: SubmissionResult<string[]>, status: number) {
  return data({ intent, result }, { status });
}

/** A form-level error for the dialog of this intent (no submission parsed yet). */
export function listFormError(intent: string, message: string, status: number) {
  return listReply(intent, { status: "error", error: { "": [message] } } as SubmissionResult<string[]>, status);
}

type Submission = { reply(opts?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }): SubmissionResult<string[]> };

/**
 * A list load that did not start: a file the intake refused goes back to the dialog's file field; a failed
 * hand-off returns to the page with an error toast; `known` maps the caller's own errors; anything else is
 * logged and becomes the dialog's form error.
 */
export async function loadFailureReply(
  e: unknown,
  opts: {
    request: Request;
    intent: string;
    submission: Submission;
    page: string;
    failTitle: string;
    /** The toast's title when the hand-off fails (the failure title unless given). */
    handOffTitle?: string;
    known?: (e: unknown) => Response | ListReply | undefined;
  },
): Promise<ListIntentOutcome<Response | ListReply>> {
  const { request, intent, submission, page, failTitle } = opts;
  const known = opts.known?.(e);
  if (known) return { response: known };
  const err = formErrorOf(e);
  // the load was recorded and marked failed: back to the page, where its row says so, with the reason in a toast
  if (err?.code === "hand_off_failed") {
    return {
      response: redirect(page, {
        headers: { "Set-Cookie": await flashToast(request, { kind: "error", title: opts.handOffTitle ?? failTitle, description: err.message }) },
      }),
    };
  }
  if (err) return { response: listReply(intent, submission.reply({ fieldErrors: { file: [err.message] } }), err.status) };
  console.error(e);
  return { response: listReply(intent, submission.reply({ formErrors: [failTitle] }), 500) };
}
