import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { requireUser, type SessionUser } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { env } from "~/utils/env.server";
import { formatBytes, formatNumber } from "~/utils/format";
import { recordAudit } from "~/models/user.server";
import { CategoryNameTakenError, createCategory, listCategories, type CategoryItem } from "~/models/category.server";
import {
  CategoryNotFoundError,
  createContainer,
  getContainer,
  latestContainerLoads,
  listContainers,
  parseListId,
  updateContainer,
  type ContainerItem,
  type ListLoadItem,
} from "~/models/container.server";
import { getPlanState, isUsageError, NoPlanError } from "~/models/usage.server";
import { getPlanGate } from "~/models/plan-gate.server";
import { NoPlanGate } from "~/components/pricing";
import { isMultipart, readUploadForm, type UploadForm } from "~/intake/upload-form.server";
import type { StoredUpload } from "~/intake/upload-store.server";
import { dispatchListForm, type ListIntentOutcome } from "~/intake/list-form-action.server";
import { submitListLoad, type ListLoadSubmission, type LoadSource } from "~/intake/submit-list-load.server";
import { releaseFinishedLoadUploads } from "~/intake/sweep.server";
import { IntakeInputError } from "~/intake/preview.server";
import { HandOffError } from "~/intake/hand-off";
import { getScrubService } from "~/utils/scrub.server";
import { CONTAINER_TEXT, describeLoad } from "~/utils/list-text";
import {
  addNumbersSchema,
  browserHasFile,
  categorySchema,
  createContainerSchema,
  editContainerSchema,
} from "~/utils/list-forms";
import { splitManualNumbers } from "~/intake/typed-numbers";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass, TextField } from "~/components/ui/form";
import { ListVersionHistory } from "~/components/proof/list-version-history";
import { listVersions, type ListVersion } from "~/models/list-version.server";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { CardMenu, ListDialog, NumbersInput, ProgressBar, usePolling } from "~/components/lists/list-ui";
import { DateOnly } from "~/components/ui/date-time";
import { getExemptionList, listExemptionLists, parseExemptionListId } from "~/models/exemption.server";
import { createExemptionsAction, loadExemptionsAction } from "./exemption-actions.server";
import { CreateExemptionsDialog, ExemptionListsSection, LoadExemptionsDialog, type ExemptionListView } from "./exemption-lists";

export const meta: MetaFunction = () => [{ title: "Storage Containers · Data Purging Tool" }];


const DIALOGS = ["create-category", "create-container", "edit-container", "add-numbers", "create-exemptions", "load-exemptions"] as const;
type DialogName = (typeof DIALOGS)[number];
const SUBSCRIBE_RETURN = "/containers?dialog=create-container";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  await releaseFinishedLoadUploads(db).catch((e) => console.error(e));
  const param = url.searchParams.get("dialog");
  let dialog: DialogName | null = (DIALOGS as readonly string[]).includes(param ?? "") ? (param as DialogName) : null;

  let containers: ContainerItem[] = [];
  let categories: CategoryItem[] = [];
  let loads: Record<number, ListLoadItem> = {};
  let versions: Record<number, ListVersion[]> = {};
  const errors: string[] = [];
  try {
    const [c, l] = await Promise.all([listContainers(db, user.id), latestContainerLoads(db, user.id)]);
    containers = c;
    loads = Object.fromEntries(l);
    versions = Object.fromEntries(await listVersions(db, c.map((x) => x.id)));
  } catch (e) {
    console.error(e);
    errors.push(CONTAINER_TEXT.loadFailed);
  }
  try {
    categories = await listCategories(db, user.id);
  } catch (e) {
    console.error(e);
    errors.push(CONTAINER_TEXT.categoriesFailed);
  }
  let exemptionLists: ExemptionListView[] = [];
  try {
    exemptionLists = await listExemptionLists(db, user.id);
  } catch (e) {
    console.error(e);
    errors.push("Failed to load exemption lists from server.");
  }

  let target: ContainerItem | null = null;
  if (dialog === "edit-container" || dialog === "add-numbers") {
    const id = parseListId(url.searchParams.get("id"));
    target = (id && (await getContainer(db, { id, userId: user.id }))) || null;
    if (!target) throw data("Container not found", { status: 404 });
  }
  let exemptionTarget: ExemptionListView | null = null;
  if (dialog === "load-exemptions") {
    const id = parseExemptionListId(url.searchParams.get("id"));
    exemptionTarget = (id && (await getExemptionList(db, { id, userId: user.id }))) || null;
    if (!exemptionTarget) throw data("Exemption list not found", { status: 404 });
  }

  // No plan: the subscription dialog opens instead of the create/add dialogs (and on arrival); after
  // subscribing, the confirm flow returns to the create-container dialog.
  const gate = await getPlanGate(db, user.id, SUBSCRIBE_RETURN);
  const showGate =
    gate !== null && (param === null || dialog === "create-container" || dialog === "add-numbers" || dialog === "create-exemptions" || dialog === "load-exemptions");
  if (showGate) dialog = null;

  const now = Date.now();
  return {
    containers,
    categories,
    loads,
    versions,
    /** Whole days since each container's newest version (its age), computed here so server and browser agree. */
    ages: Object.fromEntries(Object.entries(versions).map(([id, v]) => [id, v.length ? Math.floor((now - Date.parse(v[0].loadedAt)) / 86_400_000) : null])),
    errors,
    dialog,
    target,
    exemptionLists,
    exemptionTarget,
    gate: showGate ? gate : null,
    preselectCategory: url.searchParams.get("categoryId"),
    maxUploadText: formatBytes(env().MAX_UPLOAD_BYTES),
    maxUploadBytes: env().MAX_UPLOAD_BYTES,
  };
}

type ActionResult = { intent: string; result: SubmissionResult<string[]> };

function reply(intent: string, result: SubmissionResult<string[]>, status: number) {
  return data<ActionResult>({ intent, result }, { status });
}

function formError(intent: string, message: string, status: number) {
  return reply(intent, { status: "error", error: { "": [message] } } as SubmissionResult<string[]>, status);
}

type ContainerIntentResponse = Response | ReturnType<typeof reply>;
type ContainerIntent = (ctx: ContainerActionContext) => Promise<ListIntentOutcome<ContainerIntentResponse>>;
interface ContainerActionContext {
  request: Request;
  user: SessionUser;
  form: UploadForm;
  /** The form's list source (a staged or posted file, or typed numbers). */
  upload: StoredUpload | null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  // A body that may carry a file is read only for users with a plan (checked before reading it).
  if (isMultipart(request) && !(await getPlanState(db, user.id)).hasAccess) return redirect(SUBSCRIBE_RETURN);
  const form = await readUploadForm(request, { userId: user.id });
  return dispatchListForm<ContainerActionContext, ContainerIntentResponse>({ request, user, form }, user.id, CONTAINER_INTENTS, formError);
}

const CONTAINER_INTENTS: Record<string, ContainerIntent> = {
  "create-category": async (ctx) => ({ response: await createCategoryAction(ctx) }),
  "create-container": createContainerAction,
  "edit-container": async (ctx) => ({ response: await editContainerAction(ctx) }),
  "add-numbers": addNumbersAction,
  "create-exemptions": createExemptionsAction,
  "load-exemptions": loadExemptionsAction,
};

async function createCategoryAction({ request, user, form }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: categorySchema });
  if (submission.status !== "success") return reply("create-category", submission.reply(), 400);
  const db = await getDb();
  try {
    const category = await createCategory(db, { userId: user.id, ...submission.value });
    await recordAudit(db, {
      actorId: user.id,
      action: "category.create",
      targetType: "category",
      targetId: category.id,
      details: { name: category.name },
    });
    const back = form.fields.get("returnTo") === "create-container";
    const to = back ? `/containers?${new URLSearchParams({ dialog: "create-container", categoryId: category.id })}` : "/containers";
    return redirect(to, {
      headers: { "Set-Cookie": await flashToast(request, { kind: "success", title: CONTAINER_TEXT.categoryCreated, description: category.name }) },
    });
  } catch (e) {
    if (e instanceof CategoryNameTakenError) return reply("create-category", submission.reply({ fieldErrors: { name: [e.message] } }), 409);
    console.error(e);
    return reply("create-category", submission.reply({ formErrors: [CONTAINER_TEXT.categoryFailed] }), 500);
  }
}

function loadSource(upload: StoredUpload | null, method: "manual" | "csv", numbers: string | undefined): LoadSource {
  if (method === "csv") {
    if (!upload) throw new Error("validated csv without file");
    return { kind: "file", upload };
  }
  return { kind: "manual", numbers: splitManualNumbers(numbers).numbers };
}

async function createContainerAction({ request, user, form, upload }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: createContainerSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("create-container", submission.reply(), 400) };
  const v = submission.value;
  const source = loadSource(upload, v.method, v.numbers);
  let created: ContainerItem | undefined;
  return submitLoad(request, "create-container", submission, CONTAINER_TEXT.containerCreated, () => created?.name ?? v.name, {
    userId: user.id,
    mode: "add",
    source,
    reserve: true,
    list: async (trx) => {
      created = await createContainer(trx, { userId: user.id, name: v.name, description: v.description, categoryId: v.categoryId });
      return created.id;
    },
    audit: (listId, loadId) => ({
      action: "container.create",
      targetType: "container",
      targetId: String(listId),
      details: { name: created?.name, category: created?.categoryName, loadId, source: source.kind },
    }),
  });
}

async function editContainerAction({ request, user, form }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: editContainerSchema });
  if (submission.status !== "success") return reply("edit-container", submission.reply(), 400);
  const id = parseListId(submission.value.id);
  const db = await getDb();
  if (!id || !(await getContainer(db, { id, userId: user.id }))) throw data("Container not found", { status: 404 });
  try {
    const { name, description, categoryId } = submission.value;
    const updated = await updateContainer(db, { id, userId: user.id, name, description, categoryId });
    if (!updated) throw data("Container not found", { status: 404 });
    await recordAudit(db, {
      actorId: user.id,
      action: "container.update",
      targetType: "container",
      targetId: String(id),
      details: { name: updated.name, category: updated.categoryName },
    });
    return redirect("/containers", {
      headers: { "Set-Cookie": await flashToast(request, { kind: "success", title: CONTAINER_TEXT.containerUpdated, description: updated.name }) },
    });
  } catch (e) {
    if (e instanceof CategoryNotFoundError) return reply("edit-container", submission.reply({ fieldErrors: { categoryId: [e.message] } }), 400);
    if (e && typeof e === "object" && "type" in e && (e as { type: string }).type === "DataWithResponseInit") throw e;
    console.error(e);
    return reply("edit-container", submission.reply({ formErrors: [CONTAINER_TEXT.updateFailed] }), 500);
  }
}

async function addNumbersAction({ request, user, form, upload }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: addNumbersSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("add-numbers", submission.reply(), 400) };
  const v = submission.value;
  const id = parseListId(v.id);
  const db = await getDb();
  const container = id ? await getContainer(db, { id, userId: user.id }) : undefined;
  if (!container) throw data("Container not found", { status: 404 });
  const source = loadSource(upload, v.method, v.numbers);
  return submitLoad(request, "add-numbers", submission, CONTAINER_TEXT.numbersAdded, () => container.name, {
    userId: user.id,
    mode: "add",
    source,
    reserve: true,
    list: container.id,
    audit: (listId, loadId) => ({
      action: "container.load",
      targetType: "container",
      targetId: String(listId),
      details: { name: container.name, loadId, source: source.kind },
    }),
  });
}

/**
 * Hands the form to the intake and answers: typed numbers are loaded now (toast with counts); a file goes to
 * the queue (progress page); refusals go back to the dialog.
 */
async function submitLoad(
  request: Request,
  intent: "create-container" | "add-numbers",
  submission: { reply(opts?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }): SubmissionResult<string[]> },
  title: string,
  name: () => string,
  input: ListLoadSubmission,
) {
  const failed = intent === "create-container" ? CONTAINER_TEXT.containerFailed : CONTAINER_TEXT.addFailed;
  let submitted;
  try {
    submitted = await submitListLoad(await getDb(), await getScrubService(), input);
  } catch (e) {
    if (e instanceof NoPlanError) return { response: redirect(SUBSCRIBE_RETURN) };
    if (isUsageError(e)) return { response: reply(intent, submission.reply({ formErrors: [e.message] }), 422) };
    if (e instanceof CategoryNotFoundError) return { response: reply(intent, submission.reply({ fieldErrors: { categoryId: [e.message] } }), 400) };
    if (e instanceof IntakeInputError) return { response: reply(intent, submission.reply({ fieldErrors: { file: [e.message] } }), 400) };
    if (e instanceof HandOffError) {
      return {
        
        response: redirect("/containers", {
          headers: { "Set-Cookie": await flashToast(request, { kind: "error", title: CONTAINER_TEXT.addFailed, description: e.message }) },
        }),
      };
    }
    console.error(e);
    return { response: reply(intent, submission.reply({ formErrors: [failed] }), 500) };
  }
  if (!submitted.outcome) {
    return {
      handedOver: true,
      response: redirect(`/containers/loads/${submitted.loadId}`, {
        headers: {
          // A new container is created now; numbers are only "added" when the load completes (its own toast).
          "Set-Cookie": await flashToast(
            request,
            intent === "create-container"
              ? { kind: "success", title, description: `Loading numbers into ${name()}…` }
              : { kind: "info", title: "Loading Numbers", description: `Loading numbers into ${name()}…` },
          ),
        },
      }),
    };
  }
  return {
    handedOver: true,
    response: redirect("/containers", {
      headers: { "Set-Cookie": await flashToast(request, { kind: "success", title, description: describeLoad(submitted.outcome, "add") }) },
    }),
  };
}

/* ------------------------------------------------------------------ UI */

function useLastResult(intent: string): SubmissionResult<string[]> | undefined {
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  return actionData?.intent === intent ? actionData.result : undefined;
}

function CategoryBadge({ name }: { name: string | null }) {
  return (
    <span className="inline-flex items-center rounded-full bg-blue-50 px-2.5 py-0.5 text-xs font-medium text-blue-700 ring-1 ring-blue-200">
      {name ?? "Uncategorized"}
    </span>
  );
}

function ContainerCard({ container, load, versions, age }: { container: ContainerItem; load?: ListLoadItem; versions: ListVersion[]; age: number | null }) {
  const active = load && (load.status === "queued" || load.status === "running");
  return (
    <li className="flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="container-card">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-slate-900">{container.name}</h2>
          <div className="mt-1">
            <CategoryBadge name={container.categoryName} />
          </div>
        </div>
        <CardMenu
          label={`Actions for ${container.name}`}
          items={[
            { label: "Edit Container", to: `/containers?dialog=edit-container&id=${container.id}` },
            { label: "Add Numbers", to: `/containers?dialog=add-numbers&id=${container.id}` },
          ]}
        />
      </div>
      <p className="mt-3 line-clamp-3 min-h-[1.25rem] text-sm text-slate-600">{container.description || "No description"}</p>
      <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Size</dt>
          <dd className="font-medium text-slate-900" data-testid="container-size">
            {formatNumber(container.size)} {container.size === 1 ? "number" : "numbers"}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Created</dt>
          <dd className="font-medium text-slate-900"><DateOnly value={container.createdAt} /></dd>
        </div>
        {versions.length > 0 && age !== null && (
          <div className="col-span-2">
            <dt className="text-xs text-slate-500">Last changed</dt>
            <dd className="font-medium text-slate-900" data-testid="container-age">
              <DateOnly value={versions[0].loadedAt} /> ({age === 0 ? "today" : age === 1 ? "1 day ago" : `${formatNumber(age)} days ago`})
            </dd>
          </div>
        )}
      </dl>
      <ListVersionHistory versions={versions} registry={false} />
      {active && (
        <Link to={`/containers/loads/${load.id}`} className="mt-4 block rounded-md bg-slate-50 p-2 hover:bg-slate-100">
          <ProgressBar percent={load.percent} label={`Loading ${load.fileName}`} />
        </Link>
      )}
      {load?.status === "failed" && (
        <p className="mt-4 rounded-md bg-red-50 p-2 text-xs text-red-700">
          Last load failed: <Link className="underline" to={`/containers/loads/${load.id}`}>details</Link>
        </p>
      )}
    </li>
  );
}

function CategorySelect({
  field,
  categories,
  returnTo,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: any;
  categories: CategoryItem[];
  returnTo?: string;
}) {
  const props = getSelectProps(field);
  return (
    <div>
      <div className="mb-1 flex items-center justify-between">
        <label htmlFor={field.id} className="block text-sm font-medium text-slate-700">
          Category
        </label>
        {returnTo && (
          <Link to={`/containers?dialog=create-category&returnTo=${returnTo}`} className="text-xs text-blue-600 hover:underline">
            New category
          </Link>
        )}
      </div>
      <select {...props} key={props.key} className={inputClass}>
        <option value="">Select a category</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <FieldErrors id={field.errorId} errors={field.errors} />
      {categories.length === 0 && <p className="mt-1 text-xs text-slate-500">No categories yet: create one first.</p>}
    </div>
  );
}

function DescriptionField({ field }: { field: { id: string; name: string; initialValue?: unknown; errorId: string; errors?: string[] } }) {
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        Description
      </label>
      <textarea
        id={field.id}
        name={field.name}
        rows={2}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
        className={inputClass}
        placeholder="Optional"
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

function SubmitRow({ label, busyLabel, uploading = false }: { label: string; busyLabel: string; uploading?: boolean }) {
  const navigation = useNavigation();
  const busy = uploading || (navigation.state === "submitting" && navigation.formMethod?.toLowerCase() === "post");
  return (
    <div className="flex justify-end gap-2 pt-2">
      <Link to="/containers" replace className={secondaryButtonClass}>
        Cancel
      </Link>
      <button type="submit" className={buttonClass} disabled={busy}>
        {uploading ? "Uploading..." : busy ? busyLabel : label}
      </button>
    </div>
  );
}

function CreateCategoryDialog() {
  const lastResult = useLastResult("create-category");
  const location = useLocation();
  const returnTo = new URLSearchParams(location.search).get("returnTo");
  const [form, fields] = useForm({
    id: "create-category",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: categorySchema }),
  });
  return (
    <ListDialog
      title="Create Category"
      description="Group containers by category."
      closeHref={returnTo === "create-container" ? "/containers?dialog=create-container" : "/containers"}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="create-category" />
        {returnTo === "create-container" && <input type="hidden" name="returnTo" value="create-container" />}
        <FormErrors errors={form.errors} />
        <TextField label="Category name" field={fields.name} />
        <DescriptionField field={fields.description} />
        <SubmitRow label="Create Category" busyLabel="Creating..." />
      </Form>
    </ListDialog>
  );
}

function CreateContainerDialog({
  categories,
  preselect,
  maxUploadText,
  maxUploadBytes,
}: {
  categories: CategoryItem[];
  preselect: string | null;
  maxUploadText: string;
  maxUploadBytes: number;
}) {
  const lastResult = useLastResult("create-container");
  const [uploading, setUploading] = useState(false);
  const [form, fields] = useForm({
    id: "create-container",
    lastResult,
    defaultValue: { method: "manual", categoryId: preselect && categories.some((c) => c.id === preselect) ? preselect : "" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createContainerSchema(browserHasFile) }),
  });
  return (
    <ListDialog title="Create Container" description="Store numbers in a container to suppress them in purges." closeHref="/containers" testId="create-container-dialog">
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="create-container" />
        <FormErrors errors={form.errors} />
        <TextField label="Container name" field={fields.name} />
        <CategorySelect field={fields.categoryId} categories={categories} returnTo="create-container" />
        <DescriptionField field={fields.description} />
        <NumbersInput
          method={fields.method}
          numbers={fields.numbers}
          file={fields.file}
          maxUploadText={maxUploadText}
          maxUploadBytes={maxUploadBytes}
          onBusyChange={setUploading}
        />
        <SubmitRow label="Create Container" busyLabel="Creating..." uploading={uploading} />
      </Form>
    </ListDialog>
  );
}

function EditContainerDialog({ container, categories }: { container: ContainerItem; categories: CategoryItem[] }) {
  const lastResult = useLastResult("edit-container");
  const [form, fields] = useForm({
    id: `edit-container-${container.id}`,
    lastResult,
    defaultValue: { name: container.name, description: container.description, categoryId: container.categoryId ?? "" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editContainerSchema }),
  });
  return (
    <ListDialog title="Edit Container" closeHref="/containers">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="edit-container" />
        <input type="hidden" name="id" value={container.id} />
        <FormErrors errors={form.errors} />
        <TextField label="Container name" field={fields.name} />
        <CategorySelect field={fields.categoryId} categories={categories} />
        <DescriptionField field={fields.description} />
        <SubmitRow label="Save Changes" busyLabel="Saving..." />
      </Form>
    </ListDialog>
  );
}

function AddNumbersDialog({
  container,
  maxUploadText,
  maxUploadBytes,
}: {
  container: ContainerItem;
  maxUploadText: string;
  maxUploadBytes: number;
}) {
  const lastResult = useLastResult("add-numbers");
  const [uploading, setUploading] = useState(false);
  const [form, fields] = useForm({
    id: `add-numbers-${container.id}`,
    lastResult,
    defaultValue: { method: "manual" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addNumbersSchema(browserHasFile) }),
  });
  return (
    <ListDialog title="Add Numbers" description={`Add numbers to ${container.name}.`} closeHref="/containers" testId="add-numbers-dialog">
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="add-numbers" />
        <input type="hidden" name="id" value={container.id} />
        <FormErrors errors={form.errors} />
        <NumbersInput
          method={fields.method}
          numbers={fields.numbers}
          file={fields.file}
          maxUploadText={maxUploadText}
          maxUploadBytes={maxUploadBytes}
          onBusyChange={setUploading}
        />
        <SubmitRow label="Add Numbers" busyLabel="Adding..." uploading={uploading} />
      </Form>
    </ListDialog>
  );
}

export default function ContainersPage() {
  const {
    containers,
    categories,
    loads,
    versions,
    ages,
    errors,
    dialog,
    target,
    exemptionLists,
    exemptionTarget,
    gate,
    preselectCategory,
    maxUploadText,
    maxUploadBytes,
  } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  const arriving = navigation.state === "loading" && navigation.location.pathname === "/containers" && location.pathname !== "/containers";
  const anyActive = Object.values(loads).some((l) => l.status === "queued" || l.status === "running");
  usePolling(anyActive && !dialog, 2000);

  return (
    <div>
      <PageHeader
        title={CONTAINER_TEXT.title}
        subtitle="Keep your own suppression lists, grouped by category."
        actions={
          <>
            <Link to="/containers?dialog=create-category" preventScrollReset className={secondaryButtonClass}>
              Create Category
            </Link>
            <Link to="/containers?dialog=create-container" preventScrollReset className={buttonClass}>
              Create Container
            </Link>
          </>
        }
      />
      {errors.length > 0 && (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      )}
      {arriving ? (
        <p className="py-16 text-center text-slate-500" role="status">
          {CONTAINER_TEXT.loading}
        </p>
      ) : containers.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white py-16 text-center">
          <p className="text-base font-medium text-slate-700">{CONTAINER_TEXT.empty}</p>
          <p className="mt-1 text-sm text-slate-500">Create a container to store numbers you never want to contact.</p>
          <Link to="/containers?dialog=create-container" preventScrollReset className={`${buttonClass} mt-4`}>
            Create Container
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Containers">
          {containers.map((c) => (
            <ContainerCard key={c.id} container={c} load={loads[c.id]} versions={versions[c.id] ?? []} age={ages[c.id] ?? null} />
          ))}
        </ul>
      )}
      <ExemptionListsSection lists={exemptionLists} />

      {gate && <NoPlanGate gate={gate} closeTo="/containers?dialog=none" />}
      {dialog === "create-category" && <CreateCategoryDialog />}
      {dialog === "create-container" && (
        <CreateContainerDialog categories={categories} preselect={preselectCategory} maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />
      )}
      {dialog === "edit-container" && target && <EditContainerDialog key={target.id} container={target} categories={categories} />}
      {dialog === "add-numbers" && target && <AddNumbersDialog key={target.id} container={target} maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />}
      {dialog === "create-exemptions" && <CreateExemptionsDialog maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />}
      {dialog === "load-exemptions" && exemptionTarget && (
        <LoadExemptionsDialog key={exemptionTarget.id} list={exemptionTarget} maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
