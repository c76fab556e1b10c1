import { Form } from "@remix-run/react";
import { formatDate } from "~/utils/format";
import { DateOnly } from "~/components/ui/date-time";
import { REMIND_DAYS_BEFORE, type ReminderState } from "~/models/reminder-state";

/**
 * "Remind me to re-scrub": a plain POST form to /purge/jobs/:id/reminder (works without JavaScript), shown
 * to the job's owner only; the server checks ownership again. `redirectTo`: where to come back.
 */
export function ReminderForm({
  jobId,
  reminder,
  redirectTo,
  compact = false,
}: {
  jobId: string;
  reminder: ReminderState;
  redirectTo: string;
  compact?: boolean;
}) {
  if (reminder.kind === "none") return null;
  const text = compact ? "text-xs" : "text-sm";
  const button = `rounded-md border border-slate-300 bg-white px-2.5 py-1 font-medium text-slate-700 hover:bg-slate-50 ${text}`;
  return (
    <Form method="post" action={`/purge/jobs/${jobId}/reminder`} className={`flex flex-wrap items-center gap-2 ${text}`} data-testid="reminder">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {reminder.kind === "open" && (
        <button type="submit" name="intent" value="remind" className={button}>
          E-mail me to re-scrub before {formatDate(reminder.validUntil)}
        </button>
      )}
      {reminder.kind === "set" && (
        <>
          <span className="text-slate-700" data-testid="reminder-set">
            Re-scrub reminder set for {formatDate(reminder.remindAt)}
          </span>
          <button type="submit" name="intent" value="cancel" className={button}>
            Cancel reminder
          </button>
        </>
      )}
      {reminder.kind === "sent" && (
        <span className="text-slate-600">
          Re-scrub reminder sent <DateOnly value={reminder.sentAt} />
        </span>
      )}
      {reminder.kind === "open" && !compact && (
        <span className="w-full text-xs text-slate-500">The e-mail goes out {REMIND_DAYS_BEFORE} days before that date (at once when fewer remain).</span>
      )}
    </Form>
  );
}
