import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { checkOptOut, zoneOffsetMinutes, type OptOutError } from "scrub-service/domain";
import { readOptOutFile } from "scrub-service";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { formErrorOf, submissionErrors } from "~/utils/action-reply.server";
import { isValidTimeZone } from "~/utils/format";
import { instantOfLocal } from "~/utils/local-instant";
import { getScrubService } from "~/utils/scrub.server";
import { listReply as reply } from "~/intake/list-dialog.server";
import type { ListIntentOutcome } from "~/intake/list-form-action.server";
import { recordOptOuts } from "~/intake/opt-outs.server";
import { importOptOutsSchema, recordOptOutSchema } from "./opt-out-forms";
import type { ContainerActionContext, ContainerIntentResponse } from "./actions.server";

/*
 * The containers screen's opt-out intents (issue #47, decision 195): one opt-out typed in the "Record opt-out" dialog,
 * or a CSV file of them; both checked by the engine's one opt-out check and recorded by the one use case
 * (recordOptOuts: the internal do-not-call list, its load, the opt-outs, honoured at once).
 */

const FIELD_OF: Record<string, string> = { number: "number", received_at: "receivedLocal", channel: "channel", words: "words", subject: "subject" };
const FAILED = "The opt-out could not be recorded. Please try again.";

/** A wall-clock time in a zone as an ISO instant with that zone's offset then (the day of receipt is that clock's day). */
export function receivedInstantOf(local: string, zone: string | undefined): string | null {
  const z = zone && isValidTimeZone(zone) ? zone : "UTC";
  const utc = instantOfLocal(local, z);
  if (!utc) return null;
  const ms = Date.parse(utc);
  const off = zoneOffsetMinutes(z, ms);
  const wall = new Date(ms + off * 60_000).toISOString().slice(0, 19);
  const sign = off < 0 ? "-" : "+";
  const a = Math.abs(off);
  return `${wall}${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
}

export async function recordOptOutAction({ request, user, form }: ContainerActionContext): Promise<ContainerIntentResponse> {
  const submission = parseWithZod(form.fields, { schema: recordOptOutSchema });
  if (submission.status !== "success") return reply("record-opt-out", submission.reply(), 400);
  const v = submission.value;
  const receivedAt = receivedInstantOf(v.receivedLocal, v.receivedZone);
  if (!receivedAt) return reply("record-opt-out", submission.reply({ fieldErrors: { receivedLocal: ["Give a real date and time"] } }), 400);
  const errors: OptOutError[] = [];
  const record = checkOptOut({ number: v.number, received_at: receivedAt, channel: v.channel, words: v.words, subject: v.subject }, 0, Date.now(), errors);
  if (!record) {
    const fieldErrors: Record<string, string[]> = {};
    for (const e of errors) (fieldErrors[FIELD_OF[e.field] ?? "number"] ??= []).push(e.message.replace(/^received_at/, "The time received"));
    return reply("record-opt-out", submission.reply({ fieldErrors }), 400);
  }
  try {
    const db = await getDb();
    await recordOptOuts(db, await getScrubService(), { userId: user.id, createdBy: user.id, source: "web", records: [record] });
    return redirect("/containers", {
      headers: {
        "Set-Cookie": await flashToast(request, {
          kind: "success",
          title: "Opt-out recorded",
          description: `${String(record.number)} is on your internal do-not-call list.`,
        }),
      },
    });
  } catch (e) {
    const err = formErrorOf(e);
    if (err) return reply("record-opt-out", submission.reply(submissionErrors(err)), err.status);
    console.error(e);
    return reply("record-opt-out", submission.reply({ formErrors: [FAILED] }), 500);
  }
}

export async function importOptOutsAction({ request, user, form, upload }: ContainerActionContext): Promise<ListIntentOutcome<ContainerIntentResponse>> {
  const submission = parseWithZod(form.fields, { schema: importOptOutsSchema(() => upload !== null) });
  if (submission.status !== "success" || !upload) return { response: reply("import-opt-outs", submission.reply(), 400) };
  const checked = await readOptOutFile(upload.path, Date.now()).catch((e: unknown) => {
    console.warn(`[opt-outs] unreadable file: ${e instanceof Error ? e.message : e}`);
    return null;
  });
  if (!checked) return { response: reply("import-opt-outs", submission.reply({ fieldErrors: { file: ["The file could not be read as CSV."] } }), 400) };
  if (!checked.ok) {
    const lines = checked.errors.slice(0, 10).map((e) => (e.field === "header" || e.field === "file" ? e.message : `Line ${e.index}: ${e.message}`));
    if (checked.total > lines.length) lines.push(`… ${checked.total - lines.length} more. Nothing was recorded.`);
    else lines.push("Nothing was recorded.");
    return { response: reply("import-opt-outs", submission.reply({ formErrors: lines }), 422) };
  }
  try {
    const db = await getDb();
    const r = await recordOptOuts(db, await getScrubService(), { userId: user.id, createdBy: user.id, source: "csv", records: checked.records });
    return {
      response: redirect("/containers", {
        headers: {
          "Set-Cookie": await flashToast(request, {
            kind: "success",
            title: "Opt-outs imported",
            description: `${r.ids.length.toLocaleString("en-US")} opt-out${r.ids.length === 1 ? "" : "s"} recorded on your internal do-not-call list.`,
          }),
        },
      }),
    };
  } catch (e) {
    const err = formErrorOf(e);
    if (err) return { response: reply("import-opt-outs", submission.reply(submissionErrors(err)), err.status) };
    console.error(e);
    return { response: reply("import-opt-outs", submission.reply({ formErrors: [FAILED] }), 500) };
  }
}
