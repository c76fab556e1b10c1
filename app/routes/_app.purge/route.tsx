import crypto from "node:crypto";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { DncClockNotice } from "~/components/proof/dnc-clock-notice";
import { dncClock, stateListClocks } from "~/models/dnc-clock.server";
import { StateListsNotice } from "~/components/proof/state-lists-notice";
import { getSettings } from "~/models/settings.server";
import { useLoaderData, useActionData, useFetcher, useRevalidator } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { requireUser, type SessionUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { getScrubService } from "~/utils/scrub.server";
import { getUpload, readUploadHead, saveTypedNumbers, uploadTooLargeMessage, type StoredUpload } from "~/intake/upload-store.server";
import { isMultipart, readUploadForm, type UploadForm } from "~/intake/upload-form.server";
import { IntakeInputError, previewUpload, type CsvSummary } from "~/intake/preview.server";
import { submitScrub } from "~/intake/submit-scrub.server";
import { acceptWizardUpload } from "~/intake/wizard-upload.server";
import { checkManualNumbers } from "~/intake/typed-numbers";
import { CSV_MESSAGES, manualSchema, parseWizardState, wizardHref, type WizardState } from "~/intake/purge-wizard";
import { getJobForViewer, jobView, type JobView } from "~/models/purge.server";
import { getCategoryOption, getContainerOption, listCategoryOptions, listContainerOptions, stateFilterAllowed } from "~/models/purge-options.server";
import { getPlanGate } from "~/models/plan-gate.server";
import { getExemptionList, listExemptionLists, parseExemptionListId } from "~/models/exemption.server";
import { getPlanState, NoPlanError } from "~/models/usage.server";
import { formErrorOf, type FormError } from "~/utils/action-reply.server";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { NoPlanGate } from "~/components/pricing";
import { PurgeWizard } from "~/routes/_app.purge/wizard";
import type { PurgeActionData } from "~/routes/_app.purge/wizard-data";
import { isActiveStatus, ORDER_WORDS, parseScrubOrder, US_STATES } from "scrub-service/domain";
import { instantOfLocal } from "~/utils/local-instant";
import { isValidTimeZone } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Purge Your Data · Data Purging Tool" }];

/** How often the browser polls a running job (JavaScript on); without JavaScript the page refreshes every 2 s. */
const POLL_MS = 1000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  const gate = await getPlanGate(db, user.id, url.pathname + url.search);
  if (gate) return { gate, wizard: null, dnc: null };

  const state = parseWizardState(url.searchParams);
  const maxUploadBytes = env().MAX_UPLOAD_BYTES;
  const planState = await getPlanState(db, user.id);
  const canFilterStates = await stateFilterAllowed(db, planState);

  const exemptionId = parseExemptionListId(state.exemptions);
  const [category, container, upload, exemptionList] = await Promise.all([
    state.category ? getCategoryOption(db, user.id, state.category) : undefined,
    state.container ? getContainerOption(db, user.id, state.container) : undefined,
    state.upload ? getUpload(user.id, state.upload) : undefined,
    exemptionId ? getExemptionList(db, { id: exemptionId, userId: user.id }) : undefined,
  ]);
  // Choices that are not (or no longer) the user's are dropped, never shown.
  const clean: WizardState = {
    ...state,
    category: category?.id ?? "",
    container: container?.id ?? "",
    exemptions: exemptionList ? String(exemptionList.id) : "",
    upload: upload?.id ?? "",
    states: canFilterStates ? state.states.filter((s) => US_STATES.some((u) => u.code === s)) : [],
  };

  if (clean.step === 5 && (clean.mode !== "csv" || !upload)) throw redirect(wizardHref(clean, { step: 4, job: "" }));
  if (clean.step === 6 && !clean.job) throw redirect(wizardHref(clean, { step: clean.mode === "manual" ? 4 : 5 }));

  let categories: { id: string; name: string }[] = [];
  let containers: { id: string; name: string; size: number; categoryId: string | null }[] = [];
  if (clean.step === 2) categories = await listCategoryOptions(db, user.id);
  let exemptionLists: { id: string; name: string; size: number }[] = [];
  if (clean.step === 3) {
    containers = await listContainerOptions(db, user.id);
    categories = await listCategoryOptions(db, user.id);
    exemptionLists = (await listExemptionLists(db, user.id)).map((l) => ({ id: String(l.id), name: l.name, size: l.size }));
  }

  let preview: CsvSummary | null = null;
  let previewError: string | null = null;
  if (clean.step === 5 && upload) {
    try {
      preview = await previewUpload(await getScrubService(), upload, clean.sheet || null);
    } catch (e) {
      if (!(e instanceof IntakeInputError)) throw e;
      previewError = e.message;
    }
  }

  let manualText: string | null = null;
  if (clean.step === 4 && clean.mode === "manual" && upload?.manual) {
    const text = await readUploadHead(upload);
    manualText = text ? text.replace(/^Number\n/, "").trimEnd() : null;
  }

  let job = null;
  if (clean.step === 6) {
    job = jobView(await getJobForViewer(db, user, clean.job));
    if (!job) throw new Response("Not found", { status: 404 });
  }

  const [clock, stateLists, settings] = await Promise.all([dncClock(db), stateListClocks(db), getSettings(db)]);
  return {
    gate: null,
    dnc: { clock, stateLists, refusing: settings.refuseStaleDnc },
    wizard: {
      state: clean,
      maxUploadBytes,
      limitMessage: uploadTooLargeMessage(maxUploadBytes),
      canFilterStates,
      usStates: canFilterStates ? US_STATES.map((s) => ({ code: s.code, name: s.name })) : [],
      categoryName: category?.name ?? null,
      containerName: container?.name ?? null,
      exemptionListName: exemptionList?.name ?? null,
      categories,
      containers,
      exemptionLists,
      upload: upload ? { id: upload.id, name: upload.originalName, bytes: upload.bytes, manual: upload.manual } : null,
      manualText,
      /** Identifies this rendering of the manual form, so a resent form does not start a second purge. */
      submissionId: clean.step === 4 && clean.mode === "manual" ? crypto.randomBytes(16).toString("hex") : "",
      preview,
      previewError,
      job,
    },
  };
}

function fail(intent: string, message: string, status = 400, title = "Validation Error", field?: "at") {
  return data<PurgeActionData>({ intent, error: { title, message, ...(field ? { field } : {}) } }, { status });
}

/** A known refusal (decision 194's catalogue) as the wizard's error; the instant's field is shown where it was typed. */
function knownFailure(intent: string, e: FormError) {
  return fail(intent, e.message, e.status, e.title, e.field === "at" ? "at" : undefined);
}

type PurgeIntent = (ctx: PurgeActionContext) => Promise<Response | ReturnType<typeof fail>>;
interface PurgeActionContext {
  user: SessionUser;
  db: Awaited<ReturnType<typeof getDb>>;
  form: UploadForm;
  state: WizardState;
  canFilterStates: boolean;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const planState = await getPlanState(db, user.id);
  // Checked before the body is read: only users with a plan send files.
  if (!planState.hasAccess) return knownFailure("", formErrorOf(new NoPlanError("suppression"))!);
  const form = await readUploadForm(request, { userId: user.id });
  const intent = String(form.fields.get("intent") ?? "");
  try {
    if (form.refusal) return fail("upload", form.refusal.message, form.refusal.status);
    if (form.malformed) {
      return isMultipart(request) ? fail("upload", CSV_MESSAGES.unreadable) : fail("", "The form could not be read. Please try again.");
    }
    const handler = PURGE_INTENTS[intent];
    if (!handler) return fail(intent, "Unknown action.");
    const state = parseWizardState(form.fields);
    return await handler({ user, db, form, state, canFilterStates: await stateFilterAllowed(db, planState) });
  } finally {
    // Only the upload step keeps a file (the wizard's URL then refers to it).
    if (intent !== "upload") await form.discard();
  }
}

const PURGE_INTENTS: Record<string, PurgeIntent> = {
  upload: uploadIntent,
  manual: manualIntent,
  start: startIntent,
};

async function uploadIntent({ user, form }: PurgeActionContext) {
  const outcome = await acceptWizardUpload(user.id, form);
  return outcome.ok ? redirect(outcome.redirectTo) : fail("upload", outcome.message, outcome.status);
}

async function manualIntent(ctx: PurgeActionContext) {
  const submission = parseWithZod(ctx.form.fields, { schema: manualSchema });
  if (submission.status !== "success") {
    const message = submission.error?.numbers?.[0] ?? "Please enter phone numbers";
    return data<PurgeActionData>({ intent: "manual", reply: submission.reply(), error: { title: "Validation Error", message } }, { status: 400 });
  }
  const checked = checkManualNumbers(submission.value.numbers);
  const numbers = checked.ok ? checked.numbers : [];
  const submissionId = ctx.form.fields.get("submission");
  let upload: StoredUpload;
  try {
    upload = await saveTypedNumbers(ctx.user.id, numbers, { id: typeof submissionId === "string" ? submissionId : undefined });
  } catch (e) {
    const known = formErrorOf(e);
    if (known) return knownFailure("manual", known);
    throw e;
  }
  return start(ctx, "manual", { ...ctx.state, mode: "manual" }, upload, "Number");
}

async function startIntent(ctx: PurgeActionContext) {
  const upload = await getUpload(ctx.user.id, ctx.state.upload);
  if (!upload) return fail("start", CSV_MESSAGES.noFile);
  const column = String(ctx.form.fields.get("column") ?? "").trim();
  return start(ctx, "start", { ...ctx.state, mode: "csv", column }, upload, column);
}

/**
 * The instant the purge answers for: the wizard's date and time in the analyst's zone (`atLocal` + `atZone`, #44), or
 * an ISO instant (`at`, as the API takes it); null: when the purge starts. A local time that names no instant is
 * passed on as written, for the order's own refusal.
 */
function evaluationInstantOf(fields: { get(name: string): unknown }): string | null {
  const local = String(fields.get("atLocal") ?? "").trim();
  if (local) {
    const zone = String(fields.get("atZone") ?? "");
    return instantOfLocal(local, isValidTimeZone(zone) ? zone : "UTC") ?? local;
  }
  return String(fields.get("at") ?? "").trim() || null;
}

/**
 * The calls' purpose and debt column (decision 191): shown with "Add calling times" only, so read only with it; the
 * debt column only for debt collection (a column chosen before switching back to telemarketing means nothing).
 */
function callsOf(state: WizardState): { purpose: WizardState["purpose"]; debtColumn: string | null } {
  const purpose = state.calling ? state.purpose : "telemarketing";
  return { purpose, debtColumn: purpose === "debt-collection" ? state.debtColumn.trim() || null : null };
}

async function start(ctx: PurgeActionContext, intent: string, state: WizardState, upload: StoredUpload, column: string) {
  // The order, parsed once (scrub-service/domain order.ts): the optional evaluation instant of the calling times and
  // the exemptions (decisions 131, 161) only with one of them; its bounds (decision 174) and the container's and
  // exemption list's owner are the intake's (submitScrub).
  const parsed = parseScrubOrder(
    {
      userId: ctx.user.id,
      inputPath: upload.path,
      fileName: upload.originalName,
      suppressionType: state.type,
      columnName: column,
      sheet: state.mode === "csv" ? state.sheet || null : null,
      categoryId: state.category,
      containerId: state.container,
      states: state.states,
      callingWindow: state.calling,
      exemptionListId: state.exemptions,
      evaluatedAt: evaluationInstantOf(ctx.form.fields),
      ...callsOf(state),
    },
    ORDER_WORDS.wizard,
  );
  if (!parsed.ok) return fail(intent, parsed.message, 400, "Validation Error", parsed.field === "evaluatedAt" ? "at" : undefined);
  try {
    const { jobId } = await submitScrub(ctx.db, await getScrubService(), {
      order: parsed.order,
      upload,
      stateFilterAllowed: ctx.canFilterStates,
      origin: { source: "web" },
    });
    return redirect(wizardHref(state, { step: 6, upload: upload.id, job: jobId }));
  } catch (e) {
    const known = formErrorOf(e);
    if (known) return knownFailure(intent, known);
    console.warn(`[purge] start failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return fail(intent, "Failed to process purge.", 500, "Purge Failed");
  }
}

export default function Purge() {
  const { gate, wizard, dnc } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as PurgeActionData | undefined;
  const revalidator = useRevalidator();
  const progress = useFetcher<JobView>();
  const loaded = wizard?.job ?? null;
  const running = loaded && isActiveStatus(loaded.status);
  // While the job runs, poll its small JSON progress; once it has finished, reload the page data (results).
  const polled = running && progress.data?.id === loaded.id ? progress.data : null;
  const finished = polled && (polled.status === "completed" || polled.status === "failed");

  useEffect(() => {
    if (!running || finished) return;
    const t = setInterval(() => {
      if (progress.state === "idle") progress.load(`/purge/jobs/${loaded.id}`);
    }, POLL_MS);
    return () => clearInterval(t);
  }, [running, finished, loaded?.id, progress]);

  useEffect(() => {
    if (finished && revalidator.state === "idle") revalidator.revalidate();
  }, [finished, revalidator]);

  if (gate) {
    return (
      <>
        <PageHeader title="Purge Your Data" />
        <NoPlanGate gate={gate} />
      </>
    );
  }
  if (!wizard) return null;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Purge Your Data" subtitle="Remove litigators, do-not-call numbers and duplicates from your phone lists." />
      {dnc && wizard.state.type === "DNCAndLitigation" && wizard.state.step < 6 && (dnc.clock.state === "stale" || dnc.clock.state === "never") ? (
        <DncClockNotice clock={dnc.clock} variant="banner" refusing={dnc.refusing} />
      ) : null}
      {dnc && wizard.state.type === "DNCAndLitigation" && wizard.state.step < 6 ? <StateListsNotice clocks={dnc.stateLists} refusing={dnc.refusing} /> : null}
      <PurgeWizard wizard={polled && !finished ? { ...wizard, job: polled } : wizard} actionData={actionData} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
