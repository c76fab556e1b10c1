import { describe, expect, it } from "vitest";
import { CodedError, customerTextOf, ERROR_CATALOGUE, errorCodeOf } from "./errors";
import { failureText } from "./scrub-job";
import { ListStoreError } from "./lists/store";
import { ScrubInputError } from "./pipeline/run";

/* Issue #45 step 5 (decision 194): the engine's job failures read the catalogue, never a message. */

describe("the engine's job failures read the catalogue, never a message", () => {
  it("the customer's input is shown as is; nothing for the operator", () => {
    expect(failureText(new ScrubInputError("Column 'Phone' was not found."))).toEqual({ customer: "Column 'Phone' was not found.", operator: null });
  });

  it("a list store failure: the customer's fixed words, the operator's next command unless the message names it", () => {
    const lost = failureText(new ListStoreError("Redis lost list 3."));
    expect(lost.customer).toBe(ERROR_CATALOGUE.list_store_unavailable.customer);
    expect(lost.operator).toBe("Redis lost list 3. Rebuild the list store with `npm run lists -- rebuild` once it answers.");
    expect(failureText(new ListStoreError("Redis did not answer.", true)).operator).toMatch(
      /^Redis did not answer\. Once Redis answers again, `npm run lists -- status`/,
    );
    expect(failureText(new ListStoreError("Rebuild it with `npm run lists -- rebuild`.", false, "in-message")).operator).toBe(
      "Rebuild it with `npm run lists -- rebuild`.",
    );
  });

  it("an error from another bundle (another copy of its class) is known by its name", () => {
    // the CLI's and the threads' bundles carry their own copies of the classes: instanceof fails, the name holds
    const copy = Object.assign(new Error("The file is empty."), { name: "ScrubInputError" });
    expect(copy).not.toBeInstanceOf(CodedError);
    expect(errorCodeOf(copy)).toBe("invalid_input");
    expect(failureText(copy)).toEqual({ customer: "The file is empty.", operator: null });
    const store = Object.assign(new Error("gone"), { name: "ListStoreError" });
    expect(failureText(store)).toEqual({ customer: ERROR_CATALOGUE.list_store_unavailable.customer, operator: "gone" });
  });

  it("a full disk by its errno, a stopped worker by its code, anything else our side's words", () => {
    const full = Object.assign(new Error("write failed"), { code: "ENOSPC" });
    expect(failureText(full)).toEqual({ customer: ERROR_CATALOGUE.disk_full.customer, operator: "write failed" });
    expect(failureText(new CodedError("worker_stopped", "worker exited with code: 1")).customer).toBe(ERROR_CATALOGUE.worker_stopped.customer);
    // a message that only looks like a stopped worker is not read as one
    expect(failureText(new Error("worker exited with code: 1")).customer).toBe(ERROR_CATALOGUE.internal.customer);
    expect(customerTextOf(new Error("secret stack detail"))).toBe(ERROR_CATALOGUE.internal.customer);
  });
});
