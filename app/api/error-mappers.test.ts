import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "scrub-service/domain";
import { API_ERROR_CODES, ApiError, apiErrorOf } from "./api.server";
import { formErrorOf } from "~/utils/action-reply.server";
import { ActiveJobsLimitError, NoPlanError, UsageLimitError } from "~/models/usage.server";
import { IntakeInputError } from "~/intake/preview.server";
import { HandOffError } from "~/intake/hand-off";
import { StorageFullError, UploadTooLargeError } from "~/intake/upload-store.server";
import { ReviewConflictError } from "~/models/transaction.server";

/* Issue #45 step 5 (decision 194): one catalogue, two mappers (API, forms); the engine's side is in scrub-service/src/errors.test.ts. */

const periodEnd = new Date("2026-12-31T00:00:00Z");

describe("the error catalogue and its two mappers", () => {
  it("every API code of the catalogue is a public API code", () => {
    for (const entry of Object.values(ERROR_CATALOGUE)) expect(API_ERROR_CODES).toContain(entry.api);
  });

  it("the plan's refusals: the API's 403/429 with details, the forms' 402 with the dialog's titles", () => {
    const limit = new UsageLimitError("suppression", { planName: "Business", limit: 1000, used: 990, requested: 20, available: 10, periodEnd });
    expect(apiErrorOf(limit)).toMatchObject({
      status: 403,
      code: "usage_limit_exceeded",
      details: { limit: 1000, used: 990, requested: 20, available: 10, period_end: "2026-12-31T00:00:00.000Z" },
    });
    expect(formErrorOf(limit)).toEqual({ code: "usage_limit", status: 402, title: "Usage Limit Reached", message: limit.message });
    expect(apiErrorOf(new NoPlanError("suppression"))).toMatchObject({ status: 403, code: "no_plan" });
    expect(formErrorOf(new NoPlanError("container"))?.title).toBe("Subscription Required");
    expect(apiErrorOf(new ActiveJobsLimitError(5))).toMatchObject({ status: 429, code: "too_many_active_jobs", details: { limit: 5 } });
    expect(formErrorOf(new ActiveJobsLimitError(5))?.title).toBe("Purges In Progress");
  });

  it("an input error on a field: the API's 422 on the field (said under it), the form's 400 'Validation Error'", () => {
    const at = new IntakeInputError("at 2025-06-01T12:00:00Z is in the past", "at", "2025-06-01T12:00:00Z is in the past");
    expect(apiErrorOf(at)).toMatchObject({
      status: 422,
      code: "validation_failed",
      message: "at: 2025-06-01T12:00:00Z is in the past",
      details: [{ field: "at", message: "2025-06-01T12:00:00Z is in the past" }],
    });
    expect(formErrorOf(at)).toEqual({
      code: "invalid_input",
      status: 400,
      title: "Validation Error",
      message: "at 2025-06-01T12:00:00Z is in the past",
      field: "at",
    });
    // a container that is not the sender's: the API's 404, the form's field error
    const theirs = new IntakeInputError("The selected container was not found. Please choose it again.", "container");
    expect(apiErrorOf(theirs)).toMatchObject({ status: 404, code: "not_found" });
    expect(formErrorOf(theirs)).toMatchObject({ status: 400, title: "Validation Error", field: "container" });
  });

  it("our side: a failed hand-off is 503 with the job's id and Retry-After; a full disk 507; a conflict 409", () => {
    const handOff = apiErrorOf(new HandOffError("scrub", "job-1", "The purge could not be started"));
    expect(handOff).toMatchObject({ status: 503, code: "service_unavailable", details: { job_id: "job-1" }, headers: { "Retry-After": "60" } });
    expect(formErrorOf(new HandOffError("load", "l-1", "x"))?.title).toBe("Purge Failed");
    expect(apiErrorOf(new StorageFullError(new Error("ENOSPC")))).toMatchObject({ status: 507, code: "insufficient_storage" });
    expect(apiErrorOf(new UploadTooLargeError(1024))).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(apiErrorOf(new ReviewConflictError())).toMatchObject({ status: 409, code: "conflict" });
    expect(apiErrorOf(new ReviewConflictError("missing"))).toMatchObject({ status: 404, code: "not_found", message: "Transaction not found." });
  });

  it("an ApiError passes as it is; anything not catalogued is no reply of either mapper (logged, 500)", () => {
    const own = new ApiError(418, "conflict", "x");
    expect(apiErrorOf(own)).toBe(own);
    expect(apiErrorOf(new Error("boom"))).toBeNull();
    expect(formErrorOf(new Error("boom"))).toBeNull();
    expect(formErrorOf("a string")).toBeNull();
  });
});
