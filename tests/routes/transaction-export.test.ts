import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../setup/db";
import { makeRequest, testContext } from "../setup/request";
import { makeUser } from "../api/helpers";
import { startUserSession } from "~/accounts/auth.server";
import { createBankTransferTransaction } from "~/models/transaction.server";
import { loader } from "~/routes/transaction-history.export";

const { handle } = useAppTestDb();

describe("GET /transaction-history/export", () => {
  it("carries the reference the screen shows, every cell escaped", async () => {
    const db = handle().db;
    const userId = await makeUser(db, { plan: null, email: "export-ref@test.example" });
    const { transaction } = await createBankTransferTransaction(db, { userId, planId: "beginner" });
    await db.updateTable("transactions").set({ description: 'Plan "Beginner", by transfer' }).where("id", "=", transaction.id).execute();
    const { transfer_reference } = await db.selectFrom("transactions").select("transfer_reference").where("id", "=", transaction.id).executeTakeFirstOrThrow();
    expect(transfer_reference).toMatch(/^[A-Z0-9-]{6,}$/);
    const cookie = (await startUserSession(makeRequest("/login"), userId)).split(";")[0];

    const res = await loader({ request: makeRequest("/transaction-history/export", { cookie }), params: {}, context: testContext });
    const lines = (await res.text()).split("\r\n");
    expect(lines[0]).toBe("Plan Name,Amount,Purchase Date,Start Date,End Date,Status,Description,DNC & Litigation Scrubs,Custom Dataset Records,Reference");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',"Plan ""Beginner"", by transfer",');
    expect(lines[1].endsWith(`,${transfer_reference}`)).toBe(true);
  });
});
