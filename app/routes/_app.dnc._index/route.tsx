import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { DncClockNotice } from "~/components/proof/dnc-clock-notice";
import { ListVersionHistory } from "~/components/proof/list-version-history";
import { listVersions, type ListVersion } from "~/models/list-version.server";
import { isoDay, parseOptionalRegistryDate } from "../../../scrub-service/src/lists/registry-date";
import { dncClock } from "~/models/dnc-clock.server";
import { getSettings } from "~/models/settings.server";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { ADMIN_ROLES, requireRole, type SessionUser } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { env } from "~/utils/env.server";
import { formatBytes, formatDate, formatNumber } from "~/utils/format";
import { REGISTRY_VALID_DAYS } from "../../../scrub-service/src/certificate/document";
import { recordAudit } from "~/models/user.server";
import { getDncList, latestDncLoads, listDncLists, parseDncType, updateDncDescription, type DncList } from "~/models/dnc.server";
import type { ListLoadItem } from "~/models/container.server";
import { readUploadForm, type UploadForm } from "~/intake/upload-form.server";
import type { StoredUpload } from "~/intake/upload-store.server";
import { dispatchListForm, type ListIntentOutcome } from "~/intake/list-form-action.server";
import { submitListLoad, type LoadSource } from "~/intake/submit-list-load.server";
import { releaseFinishedLoadUploads } from "~/intake/sweep.server";
import { IntakeInputError } from "~/intake/preview.server";
import { HandOffError } from "~/intake/hand-off";
import { getScrubService } from "~/utils/scrub.server";
import { DNC_ACCESS_MESSAGE, DNC_TEXT, dncDoneToast, type LoadMode } from "~/utils/list-text";
import { browserHasFile, dncEditSchema, dncLoadSchema } from "~/utils/list-forms";
import { splitManualNumbers } from "~/intake/typed-numbers";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { CardMenu, ListDialog, NumbersInput, ProgressBar, usePolling } from "~/components/lists/list-ui";
import { LIST_TONE_CLASSES } from "~/components/lists/list-tones";
import { DateOnly } from "~/components/ui/date-time";
import { useTimeZone } from "~/utils/time-zone";

export const meta: MetaFunction = () => [{ title: "DNC Management · Data Purging Tool" }];


const DIALOGS = ["add", "remove", "replace", "changes", "edit"] as const;
type DialogName = (typeof DIALOGS)[number];
type Mode = LoadMode;

const DIALOG_TITLES: Record<DialogName, string> = {
  add: "Add Numbers",
  remove: "Remove Numbers",
  replace: "Replace List",
  changes: "Apply FTC Change List",
  edit: "Edit DNC List",
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ADMIN_ROLES, DNC_ACCESS_MESSAGE);
  const db = await getDb();
  await releaseFinishedLoadUploads(db).catch((e) => console.error(e));
  const url = new URL(request.url);
  const param = url.searchParams.get("dialog");
  const dialog: DialogName | null = (DIALOGS as readonly string[]).includes(param ?? "") ? (param as DialogName) : null;
  const type = parseDncType(url.searchParams.get("type"));
  let lists: DncList[] = [];
  let loads: Record<number, ListLoadItem> = {};
  let versions: Record<number, ListVersion[]> = {};
  let loadError: string | null = null;
  try {
    const [l, ld] = await Promise.all([listDncLists(db), latestDncLoads(db)]);
    lists = l;
    loads = Object.fromEntries(ld);
    versions = Object.fromEntries(await listVersions(db, l.map((x) => x.id)));
  } catch (e) {
    console.error(e);
    loadError = DNC_TEXT.loadFailed;
  }
  if (dialog && dialog !== "edit" && type === null) throw data("Unknown DNC list", { status: 404 });
  const [clock, settings] = await Promise.all([dncClock(db), getSettings(db)]);
  return {
    lists,
    loads,
    versions,
    loadError,
    dialog,
    // The parser's one day of slack (an admin east of Greenwich may already be a day ahead of UTC).
    registryDateMax: isoDay(new Date(Date.now() + 86_400_000)),
    type: type ?? 0,
    maxUploadText: formatBytes(env().MAX_UPLOAD_BYTES),
    maxUploadBytes: env().MAX_UPLOAD_BYTES,
    clock,
    refusing: settings.refuseStaleDnc,
  };
}

type ActionResult = { intent: string; result: SubmissionResult<string[]> };

function reply(intent: string, result: SubmissionResult<string[]>, status: number) {
  return data<ActionResult>({ intent, result }, { status });
}

const REGISTRY_DATE_DNC_ONLY = "A registry date applies to the DNC list and the state lists only (the day of the registry download).";

type DncIntentResponse = Response | ReturnType<typeof reply>;
type DncIntent = (ctx: DncActionContext) => Promise<ListIntentOutcome<DncIntentResponse>>;
interface DncActionContext {
  request: Request;
  admin: SessionUser;
  form: UploadForm;
  upload: StoredUpload | null;
}

export async function action({ request }: ActionFunctionArgs) {
  // Checked before the body is read: only admins send DNC files.
  const admin = await requireRole(request, ADMIN_ROLES, DNC_ACCESS_MESSAGE);
  const form = await readUploadForm(request, { userId: admin.id });
  const formError = (intent: string, message: string, status: number) =>
    reply(intent, { status: "error", error: { "": [message] } } as SubmissionResult<string[]>, status);
  return dispatchListForm<DncActionContext, DncIntentResponse>({ request, admin, form }, admin.id, DNC_INTENTS, formError);
}

const DNC_INTENTS: Record<string, DncIntent> = {
  edit: async (ctx) => ({ response: await editAction(ctx) }),
  load: loadAction,
};

async function editAction({ request, admin, form }: DncActionContext) {
  const submission = parseWithZod(form.fields, { schema: dncEditSchema });
  if (submission.status !== "success") return reply("edit", submission.reply(), 400);
  const type = parseDncType(submission.value.type);
  if (type === null) return reply("edit", submission.reply({ formErrors: ["Unknown DNC list"] }), 400);
  const db = await getDb();
  try {
    const list = await updateDncDescription(db, type, submission.value.description);
    if (!list) throw new Error(`DNC list of type ${type} is missing`);
    await recordAudit(db, {
      actorId: admin.id,
      action: "dnc.update",
      targetType: "list",
      targetId: String(list.id),
      details: { suppressionType: type, description: list.description },
    });
    return redirect("/dnc", {
      headers: { "Set-Cookie": await flashToast(request, { kind: "success", title: DNC_TEXT.updated, description: list.name }) },
    });
  } catch (e) {
    console.error(e);
    return reply("edit", submission.reply({ formErrors: [DNC_TEXT.updateFailed] }), 500);
  }
}

async function loadAction({ request, admin, form, upload }: DncActionContext) {
  const submission = parseWithZod(form.fields, { schema: dncLoadSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("load", submission.reply(), 400) };
  const v = submission.value;
  const type = parseDncType(v.type);
  if (type === null) throw data("Unknown DNC list", { status: 404 });
  const mode: Mode = v.mode;
  const failTitle = mode === "add" ? DNC_TEXT.addFailed : DNC_TEXT.updateFailed;
  const db = await getDb();
  const list = await getDncList(db, type);
  if (!list) throw data("Unknown DNC list", { status: 404 });
  const stated = parseOptionalRegistryDate(v.registryDate);
  const registryDate = stated.ok ? stated.date : null;
  if (registryDate && !list.takesRegistryDate) {
    return { response: reply("load", submission.reply({ fieldErrors: { registryDate: [REGISTRY_DATE_DNC_ONLY] } }), 400) };
  }
  const source: LoadSource =
    v.method === "csv" && upload ? { kind: "file", upload } : { kind: "manual", numbers: splitManualNumbers(v.numbers).numbers };
  let submitted;
  try {
    // Admin list loads are not limited by any plan: nothing is reserved.
    submitted = await submitListLoad(db, await getScrubService(), {
      userId: admin.id,
      mode,
      source,
      reserve: false,
      list: list.id,
      registryDate,
      audit: (listId, loadId) => ({
        action: `dnc.${mode}`,
        targetType: "list",
        targetId: String(listId),
        details: {
          suppressionType: type,
          loadId,
          source: source.kind,
          fileName: upload?.originalName ?? null,
          registryDate: registryDate ? isoDay(registryDate) : null,
        },
      }),
    });
  } catch (e) {
    if (e instanceof IntakeInputError) return { response: reply("load", submission.reply({ fieldErrors: { file: [e.message] } }), 400) };
    if (e instanceof HandOffError) {
      return {
        response: redirect("/dnc", { headers: { "Set-Cookie": await flashToast(request, { kind: "error", title: failTitle, description: e.message }) } }),
      };
    }
    console.error(e);
    return { response: reply("load", submission.reply({ formErrors: [failTitle] }), 500) };
  }
  if (!submitted.outcome) {
    const title = { add: "Loading Numbers", remove: "Removing Numbers", replace: "Replacing List", changes: "Applying Change List" }[mode];
    return {
      handedOver: true,
      response: redirect(`/dnc/loads/${submitted.loadId}`, {
        headers: { "Set-Cookie": await flashToast(request, { kind: "info", title, description: `Loading ${upload?.originalName ?? "file"} into ${list.name}…` }) },
      }),
    };
  }
  return {
    handedOver: true,
    response: redirect("/dnc", { headers: { "Set-Cookie": await flashToast(request, dncDoneToast(mode, submitted.outcome)) } }),
  };
}

/* ------------------------------------------------------------------ UI */

function useLastResult(intent: string): SubmissionResult<string[]> | undefined {
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  return actionData?.intent === intent ? actionData.result : undefined;
}

function lastLoadText(load: ListLoadItem, timeZone: string): string {
  const when = formatDate(load.finishedAt ?? load.createdAt, timeZone);
  if (load.status === "failed") return `Last load failed (${when}).`;
  return `Last change ${when}: ${describeLoadText(load)}`;
}

function describeLoadText(l: ListLoadItem): string {
  const f = formatNumber;
  if (l.mode === "remove") return `${f(l.removed)} removed${l.invalid ? `, ${f(l.invalid)} invalid` : ""}.`;
  if (l.mode === "changes") return `change list: ${f(l.added)} added, ${f(l.removed)} removed${l.invalid ? `, ${f(l.invalid)} invalid` : ""}.`;
  return `${l.mode === "replace" ? "replaced, " : ""}${f(l.added)} added, ${f(l.alreadyPresent)} already present${l.invalid ? `, ${f(l.invalid)} invalid` : ""}.`;
}

function DncCard({ list, load, versions }: { list: DncList; load?: ListLoadItem; versions: ListVersion[] }) {
  const style = LIST_TONE_CLASSES[list.tone];
  const timeZone = useTimeZone();
  const active = load && (load.status === "queued" || load.status === "running");
  const q = `type=${list.suppressionType}`;
  return (
    <li className={`rounded-xl border-2 bg-white p-5 shadow-sm ${style.ring}`} data-testid={`dnc-card-${list.suppressionType}`}>
      <div className={`-mx-5 -mt-5 mb-4 h-1.5 rounded-t-lg ${style.bar}`} aria-hidden />
      <div className="flex items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{list.name}</h2>
          <p className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-600" data-testid="checked-by">
            <span>Checked by:</span>
            {list.checkedBy.map((label) => (
              <span key={label} className={`inline-flex rounded-full px-2 py-0.5 font-medium ring-1 ${style.badge}`}>
                {label}
              </span>
            ))}
          </p>
        </div>
        <CardMenu
          label={`Actions for ${list.name}`}
          items={[
            { label: "Add Numbers", to: `/dnc?dialog=add&${q}` },
            { label: "Remove Numbers", to: `/dnc?dialog=remove&${q}` },
            { label: "Replace List", to: `/dnc?dialog=replace&${q}` },
            { label: "Apply FTC Change List", to: `/dnc?dialog=changes&${q}` },
            { label: "Edit DNC List", to: `/dnc?dialog=edit&${q}` },
          ]}
        />
      </div>
      <p className="mt-3 text-sm text-slate-600">{list.description || "No description"}</p>
      <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Phone count</dt>
          <dd className="font-semibold text-slate-900" data-testid="phone-count">
            {formatNumber(list.phoneCount)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Created</dt>
          <dd className="font-medium text-slate-900"><DateOnly value={list.createdAt} /></dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Updated</dt>
          <dd className="font-medium text-slate-900"><DateOnly value={list.updatedAt} /></dd>
        </div>
      </dl>
      {list.state && <StateListFacts list={list} />}
      <ListVersionHistory versions={versions} registry={list.takesRegistryDate} />
      {active ? (
        <Link to={`/dnc/loads/${load.id}`} className="mt-4 block rounded-md bg-slate-50 p-2 hover:bg-slate-100">
          <ProgressBar percent={load.percent} label={`Loading ${load.fileName}`} />
        </Link>
      ) : (
        load && (
          <p className={`mt-4 text-xs ${load.status === "failed" ? "text-red-700" : "text-slate-500"}`}>
            {lastLoadText(load, timeZone)}{" "}
            {load.status === "failed" && (
              <Link to={`/dnc/loads/${load.id}`} className="underline">
                Details
              </Link>
            )}
          </p>
        )
      )}
    </li>
  );
}

/** A state list's cadence and freshness rule (with its source), and whether its loaded release is current (decision 160). */
function StateListFacts({ list }: { list: DncList }) {
  const rule = list.state!;
  const until = list.registryDate ? new Date(Date.parse(list.registryDate) + rule.validDays * 86_400_000) : null;
  const stale = until !== null && until.getTime() < Date.now();
  return (
    <div className="mt-3 space-y-1 text-xs text-slate-600" data-testid="state-list-facts">
      <p>
        {rule.freshness}{" "}
        <a href={rule.source} className="underline" rel="noreferrer noopener" target="_blank">
          Source
        </a>
      </p>
      {list.registryDate && until ? (
        <p className={stale ? "font-medium text-red-700" : ""} data-testid="state-list-release">
          Release of {formatDate(list.registryDate, "UTC")}: {stale ? "out of date since" : "current until"} {formatDate(until.toISOString(), "UTC")}.
        </p>
      ) : (
        <p data-testid="state-list-release">Not loaded yet: purges do not check it.</p>
      )}
    </div>
  );
}

function TypeSelect({
  field,
  lists,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: any;
  lists: DncList[];
}) {
  const props = getSelectProps(field);
  const navigate = useNavigate();
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        Suppression type
      </label>
      <select
        {...props}
        key={props.key}
        className={inputClass}
        // With JavaScript, switching the list shows that list's description (without it, the chosen list gets the text).
        onChange={(e) => navigate(`/dnc?dialog=edit&type=${e.currentTarget.value}`, { replace: true, preventScrollReset: true })}
      >
        {lists.map((l) => (
          <option key={l.suppressionType} value={String(l.suppressionType)}>
            {l.name}
          </option>
        ))}
      </select>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

function Buttons({ label, busy, danger, uploading = false }: { label: string; busy: string; danger?: boolean; uploading?: boolean }) {
  const navigation = useNavigation();
  const submitting = uploading || navigation.state === "submitting";
  return (
    <div className="flex justify-end gap-2 pt-2">
      <Link to="/dnc" replace className={secondaryButtonClass}>
        Cancel
      </Link>
      <button type="submit" className={danger ? `${buttonClass} bg-red-600 hover:bg-red-700` : buttonClass} disabled={submitting}>
        {uploading ? "Uploading..." : submitting ? busy : label}
      </button>
    </div>
  );
}

function LoadDialog({
  mode,
  list,
  maxUploadText,
  maxUploadBytes,
  registryDateMax,
}: {
  mode: Mode;
  list: DncList;
  maxUploadText: string;
  maxUploadBytes: number;
  registryDateMax: string;
}) {
  const lastResult = useLastResult("load");
  const [uploading, setUploading] = useState(false);
  const [form, fields] = useForm({
    id: `dnc-${mode}-${list.suppressionType}`,
    lastResult,
    defaultValue: { method: "manual" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: dncLoadSchema(browserHasFile, false) }),
  });
  const description =
    mode === "add"
      ? `Add numbers to ${list.name}.`
      : mode === "remove"
        ? `Remove numbers from ${list.name}.`
        : mode === "changes"
          ? `Apply an FTC change list to ${list.name}: its additions and deletions in one load.`
          : `Replace every number on ${list.name} with the numbers below.`;
  return (
    <ListDialog title={DIALOG_TITLES[mode]} description={description} closeHref="/dnc" testId={`dnc-${mode}-dialog`}>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="load" />
        <input type="hidden" name="mode" value={mode} />
        <input type="hidden" name="type" value={String(list.suppressionType)} />
        <FormErrors errors={form.errors} />
        {mode === "replace" && (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            The {formatNumber(list.phoneCount)} numbers now on this list are removed and the new ones loaded. Scrubs keep using the
            current list until the replacement is complete.
          </p>
        )}
        <NumbersInput
          method={fields.method}
          numbers={fields.numbers}
          file={fields.file}
          maxUploadText={maxUploadText}
          maxUploadBytes={maxUploadBytes}
          onBusyChange={setUploading}
          fileHint={
            mode === "changes"
              ? "The FTC change list as downloaded (flat text, comma-delimited; .zip or .gz too). Typed numbers cannot carry add/delete indicators."
              : "A CSV with a 'Phone' column, one number per line, or the FTC's full list (area code, number); CSV, Excel (.xlsx), .zip or .gz."
          }
        />
        {list.takesRegistryDate && <RegistryDateField field={fields.registryDate} max={registryDateMax} mode={mode} list={list} />}
        <Buttons label={DIALOG_TITLES[mode]} busy="Loading..." danger={mode !== "add"} uploading={uploading} />
      </Form>
    </ListDialog>
  );
}

/**
 * The day of the download this load comes from: it starts the 31-day clock of the federal registry (decision 110)
 * or a state list's own freshness rule (decision 160).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function RegistryDateField({ field, max, mode, list }: { field: any; max: string; mode: Mode; list: DncList }) {
  const fallback = mode === "remove" ? "Empty: the list keeps its registry date (a removal is no newer download)." : "Empty: the load time.";
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        Registry date
      </label>
      <input
        id={field.id}
        name={field.name}
        type="date"
        max={max}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={`${field.id}-hint${field.errors ? ` ${field.errorId}` : ""}`}
        className={`${inputClass} max-w-48`}
      />
      <p id={`${field.id}-hint`} className="mt-1 text-xs text-slate-500">
        {list.state
          ? `The day this release of the ${list.state.stateName} list was published or downloaded. It starts the list's ${list.state.validDays}-day freshness rule. `
          : `The day this file was downloaded from the National Do Not Call Registry. It starts the ${REGISTRY_VALID_DAYS}-day clock. `}
        {fallback}
      </p>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

function EditDialog({ lists, type }: { lists: DncList[]; type: number }) {
  const lastResult = useLastResult("edit");
  const current = lists.find((l) => l.suppressionType === type);
  const [form, fields] = useForm({
    id: `dnc-edit-${type}`,
    lastResult,
    defaultValue: { type: String(type), description: current?.description ?? "" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: dncEditSchema }),
  });
  return (
    <ListDialog title="Edit DNC List" closeHref="/dnc" testId="dnc-edit-dialog">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="edit" />
        <FormErrors errors={form.errors} />
        <TypeSelect field={fields.type} lists={lists} />
        <div>
          <label htmlFor={fields.description.id} className="mb-1 block text-sm font-medium text-slate-700">
            Description
          </label>
          <textarea
            id={fields.description.id}
            name={fields.description.name}
            rows={3}
            defaultValue={typeof fields.description.initialValue === "string" ? fields.description.initialValue : ""}
            className={inputClass}
          />
          <FieldErrors id={fields.description.errorId} errors={fields.description.errors} />
        </div>
        <Buttons label="Save Changes" busy="Saving..." />
      </Form>
    </ListDialog>
  );
}

export default function DncPage() {
  const { lists, loads, versions, loadError, dialog, type, maxUploadText, maxUploadBytes, clock, refusing, registryDateMax } = useLoaderData<typeof loader>();
  const anyActive = Object.values(loads).some((l) => l.status === "queued" || l.status === "running");
  usePolling(anyActive && !dialog, 2000);
  const target = lists.find((l) => l.suppressionType === type);
  return (
    <div>
      <PageHeader title={DNC_TEXT.title} subtitle="The suppression lists every purge checks." />
      <DncClockNotice clock={clock} variant="banner" refusing={refusing} />
      <DncClockNotice clock={clock} variant="line" />
      {loadError && (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {loadError}
        </div>
      )}
      <ul className="grid gap-4 md:grid-cols-2" aria-label="DNC lists">
        {lists
          .filter((l) => !l.state)
          .map((l) => (
            <DncCard key={l.id} list={l} load={loads[l.id]} versions={versions[l.id] ?? []} />
          ))}
      </ul>
      <h2 className="mb-1 mt-8 text-lg font-semibold text-slate-900">State do-not-call lists</h2>
      <p className="mb-4 text-sm text-slate-600">
        Purges that include DNC check the federal list and every state list loaded here. An empty list is not checked.
      </p>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="State DNC lists">
        {lists
          .filter((l) => l.state)
          .map((l) => (
            <DncCard key={l.id} list={l} load={loads[l.id]} versions={versions[l.id] ?? []} />
          ))}
      </ul>
      {dialog && dialog !== "edit" && target && <LoadDialog key={`${dialog}-${type}`} mode={dialog} list={target} maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} registryDateMax={registryDateMax} />}
      {dialog === "edit" && lists.length > 0 && <EditDialog key={type} lists={lists} type={type} />}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
