import { CodedError } from "scrub-service/domain";
/**
 * The one failure policy when work cannot be handed to the scrub service (docs/decisions/090-one-intake.md):
 * the job or load is marked failed with one of these messages (which releases its plan usage) and the caller
 * gets HandOffError, whichever screen or API started it.
 */
export const SCRUB_HAND_OFF_FAILED = "The purge could not be started: the scrub service did not answer. Nothing was charged; please try again in a minute.";
export const LOAD_HAND_OFF_FAILED = "The numbers could not be loaded: the scrub service did not answer. Nothing was charged; please try again in a minute.";

export class HandOffError extends CodedError {
  constructor(
    readonly kind: "scrub" | "load",
    readonly id: string,
    message: string,
  ) {
    super("hand_off_failed", message, { details: { [kind === "scrub" ? "job_id" : "load_id"]: id } });
    this.name = "HandOffError";
  }
}
