/**
 * Admin Recent Activity: an audit entry as a sentence a person reads ("Invited ann@x.com as Normal User"),
 * never its stored keys (`name: X, loadId: 12`). Pure: the dashboard's model passes the stored row in.
 */
type Details = Record<string, unknown>;

const str = (d: Details, k: string): string | null => (typeof d[k] === "string" && d[k] !== "" ? (d[k] as string) : null);
const num = (d: Details, k: string): number | null =>
  typeof d[k] === "number" ? (d[k] as number) : typeof d[k] === "string" && /^\d+$/.test(d[k] as string) ? Number(d[k]) : null;
const quoted = (v: string | null) => (v ? ` "${v}"` : "");
const count = (n: number | null, noun: string) => (n === null ? "" : `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`);
const usd = (cents: number | null) => (cents === null ? "" : `$${(cents / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}`);
const ROLE_WORDS: Record<string, string> = { NormalUser: "Normal User", UnlimitedUser: "Unlimited User", Admin: "Admin", SuperAdmin: "Super Admin" };
const role = (v: string | null) => (v ? (ROLE_WORDS[v] ?? v) : "");
const SUPPRESSION_WORDS: Record<string, string> = {
  LitigationOnly: "the Litigation list",
  DNCAndLitigation: "the Litigation and DNC lists",
  "0": "the Litigation list",
  "1": "the DNC list",
};
const joinParts = (...parts: string[]) => parts.filter(Boolean).join(", ");

const SENTENCES: Record<string, (d: Details) => { title: string; detail?: string }> = {
  "scrub.started": (d) => ({
    title: `Started a purge${quoted(str(d, "fileName"))}`,
    detail: joinParts(
      count(num(d, "rows"), "row"),
      SUPPRESSION_WORDS[String(d.suppressionType)] ? `against ${SUPPRESSION_WORDS[String(d.suppressionType)]}` : "",
      str(d, "source") === "api" ? "through the API" : "",
    ),
  }),
  "scrub.completed": (d) => ({ title: `Finished a purge${quoted(str(d, "fileName"))}`, detail: count(num(d, "rows"), "row") }),
  "container.create": (d) => ({ title: `Created the container${quoted(str(d, "name"))}` }),
  "container.update": (d) => ({ title: `Updated the container${quoted(str(d, "name"))}`, detail: str(d, "category") ? `Category ${str(d, "category")}` : "" }),
  "container.load": (d) => ({
    title: `Added numbers to the container${quoted(str(d, "name"))}`,
    detail: joinParts(
      count(num(d, "added") ?? num(d, "rows"), "number"),
      str(d, "source") === "file" ? "from a file" : str(d, "source") === "manual" ? "typed in" : "",
    ),
  }),
  "opt_out.record": (d) => ({
    title: `Recorded ${count(num(d, "rows"), "opt-out") || "opt-outs"} in the internal do-not-call list`,
    detail: str(d, "source") === "api" ? "through the API" : str(d, "source") === "csv" ? "from a CSV file" : "",
  }),
  "opt_out.retry": (d) => ({
    title: "Loaded opt-outs into the internal do-not-call list again after a failed load",
    detail: count(num(d, "numbers"), "number"),
  }),
  "category.create": (d) => ({ title: `Created the category${quoted(str(d, "name"))}` }),
  "exemptions.create": (d) => ({ title: `Created the exemption list${quoted(str(d, "name"))}`, detail: str(d, "source") === "api" ? "through the API" : "" }),
  "exemptions.load": (d) => ({
    title: `${str(d, "mode") === "replace" ? "Replaced the rows of" : "Added rows to"} the exemption list${quoted(str(d, "name"))}`,
    detail: joinParts(
      count(num(d, "rows"), "row"),
      num(d, "version") !== null ? `version ${num(d, "version")}` : "",
      str(d, "source") === "api" ? "through the API" : "",
    ),
  }),
  "dnc.update": (d) => ({ title: `Updated ${SUPPRESSION_WORDS[String(d.suppressionType)] ?? "a DNC list"}`, detail: str(d, "description") ?? "" }),
  "dnc.load": (d) => ({
    title: `Added numbers to ${SUPPRESSION_WORDS[String(d.suppressionType)] ?? "a DNC list"}`,
    detail: count(num(d, "added") ?? num(d, "rows"), "number"),
  }),
  "user.signup": () => ({ title: "Signed up" }),
  "user.email_confirmed": () => ({ title: "Confirmed their e-mail address" }),
  "user.password_reset": () => ({ title: "Reset their password" }),
  "user.invited": (d) => ({
    title: `Invited ${str(d, "email") ?? "a user"}${d.role ? ` as ${role(str(d, "role"))}` : ""}`,
    detail: str(d, "status") ? `Status ${str(d, "status")}` : "",
  }),
  "user.invitation_sent": (d) => ({
    title: `Sent an invitation to ${str(d, "email") ?? "a user"}`,
    detail: d.delivered === false ? "The e-mail could not be sent" : "",
  }),
  "user.invitation_completed": () => ({ title: "Set up their invited account" }),
  "user.updated": (d) => ({ title: "Updated a user's profile", detail: Object.keys(d).length ? `Changed ${Object.keys(d).join(", ")}` : "" }),
  "user.role_changed": (d) => ({ title: `Changed a user's role from ${role(str(d, "from"))} to ${role(str(d, "to"))}` }),
  "user.status_changed": (d) => ({ title: `Changed a user's status from ${str(d, "from") ?? "?"} to ${str(d, "to") ?? "?"}` }),
  "user.blocked": () => ({ title: "Blocked a user" }),
  "user.activated": () => ({ title: "Activated a user" }),
  "user.deleted": (d) => ({ title: `Deleted the user ${str(d, "email") ?? ""}`.trim() }),
  "plan.granted": (d) => ({ title: `Granted the ${str(d, "plan") ?? ""} plan`.replace("  ", " ") }),
  "payment.requested": (d) => ({
    title: `Asked to pay for the ${str(d, "plan") ?? ""} plan by bank transfer`.replace("  ", " "),
    detail: joinParts(usd(num(d, "amountCents")), str(d, "reference") ? `reference ${str(d, "reference")}` : ""),
  }),
  "payment.paid": (d) => ({
    title: `Marked a bank transfer paid${str(d, "reference") ? ` (${str(d, "reference")})` : ""}`,
    detail: str(d, "plan") ? `${str(d, "plan")} plan activated` : "",
  }),
  "payment.rejected": (d) => ({ title: `Rejected a bank transfer${str(d, "reference") ? ` (${str(d, "reference")})` : ""}`, detail: str(d, "note") ?? "" }),
  "integration.create": (d) => ({ title: `Created the integration${quoted(str(d, "name"))}` }),
  "integration.update": (d) => ({ title: `Updated the integration${quoted(str(d, "name"))}` }),
  "integration.delete": () => ({ title: "Deleted an integration" }),
  "integration.toggle": (d) => ({
    title: `Turned ${d.value ? "on" : "off"} ${String(d.toggle ?? "a setting")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()} for an integration`,
  }),
  "integration.rotate_secret": () => ({ title: "Replaced an integration's webhook secret" }),
  "api_key.create": (d) => ({ title: `Created an API key${quoted(str(d, "name"))}` }),
  "api_key.rename": (d) => ({ title: `Renamed an API key${str(d, "name") ? ` to "${str(d, "name")}"` : ""}` }),
  "api_key.revoke": () => ({ title: "Revoked an API key" }),
};

/** An unknown action still reads as words: "list.purged" → "List purged". */
function humanize(action: string): string {
  const words = action.replace(/[._:-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function auditSentence(action: string, details: unknown): { title: string; detail: string } {
  let d: unknown = details;
  if (typeof d === "string") {
    try {
      d = JSON.parse(d);
    } catch {
      d = null;
    }
  }
  const known = SENTENCES[action];
  if (!known) return { title: humanize(action), detail: "" };
  const out = known(d && typeof d === "object" ? (d as Details) : {});
  return { title: out.title, detail: out.detail ?? "" };
}
