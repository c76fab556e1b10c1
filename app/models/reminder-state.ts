/** The re-scrub reminder as the screens show it (pure: the server computes it, the components render it). */

/** The reminder goes out this many days before the valid-until date (at once when fewer remain). */
export const REMIND_DAYS_BEFORE = 3;

export type ReminderState =
  /** No valid-until date (not a DNC purge, not completed) or it has passed: nothing to offer. */
  | { kind: "none" }
  | { kind: "open"; validUntil: string }
  | { kind: "set"; validUntil: string; remindAt: string }
  | { kind: "sent"; validUntil: string; sentAt: string };

export function reminderState(
  j: { status: string; valid_until: Date | null; remind_at: Date | null; reminder_sent_at: Date | null },
  now: Date = new Date(),
): ReminderState {
  if (j.status !== "completed" || !j.valid_until) return { kind: "none" };
  const validUntil = j.valid_until.toISOString();
  if (j.reminder_sent_at) return { kind: "sent", validUntil, sentAt: j.reminder_sent_at.toISOString() };
  if (j.remind_at) return { kind: "set", validUntil, remindAt: j.remind_at.toISOString() };
  return j.valid_until > now ? { kind: "open", validUntil } : { kind: "none" };
}
