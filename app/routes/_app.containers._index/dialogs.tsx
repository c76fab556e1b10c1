import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useLocation } from "@remix-run/react";
import { formatNumber } from "~/utils/format";
import type { CategoryItem } from "~/models/category.server";
import type { ContainerItem, ListLoadItem } from "~/models/container.server";
import type { ListVersion } from "~/models/list-version.server";
import { addNumbersSchema, browserHasFile, categorySchema, createContainerSchema, editContainerSchema } from "~/components/lists/list-forms";
import { FieldErrors, FormErrors, inputClass, TextField } from "~/components/ui/form";
import { ListVersionHistory } from "~/components/proof/list-version-history";
import { CardMenu, ProgressBar } from "~/components/lists/list-ui";
import { DescriptionField, DialogButtons, ListDialog, ListUploadDialog, useListResult } from "~/components/lists/list-dialog";
import { DateOnly } from "~/components/ui/date-time";

/** The containers page's cards and dialogs (the dialog frame and buttons are the list pages' shared ones). */

export function CategoryBadge({ name }: { name: string | null }) {
  return (
    <span className="inline-flex items-center rounded-full bg-blue-50 px-2.5 py-0.5 text-xs font-medium text-blue-700 ring-1 ring-blue-200">
      {name ?? "Uncategorized"}
    </span>
  );
}

export function ContainerCard({
  container,
  load,
  versions,
  age,
}: {
  container: ContainerItem;
  load?: ListLoadItem;
  versions: ListVersion[];
  age: number | null;
}) {
  const active = load && (load.status === "queued" || load.status === "running");
  return (
    <li className="flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="container-card">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-slate-900">{container.name}</h2>
          <div className="mt-1 flex flex-wrap gap-1">
            {container.internalDnc ? (
              <span
                className="inline-flex items-center rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-medium text-red-700 ring-1 ring-red-200"
                data-testid="internal-dnc-badge"
              >
                Opt-outs · checked by every purge
              </span>
            ) : (
              <CategoryBadge name={container.categoryName} />
            )}
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
          <dd className="font-medium text-slate-900">
            <DateOnly value={container.createdAt} />
          </dd>
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
          Last load failed:{" "}
          <Link className="underline" to={`/containers/loads/${load.id}`}>
            details
          </Link>
        </p>
      )}
    </li>
  );
}

export function CategorySelect({
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

export function CreateCategoryDialog() {
  const lastResult = useListResult("create-category");
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
        <DialogButtons cancelTo="/containers" label="Create Category" busyLabel="Creating..." />
      </Form>
    </ListDialog>
  );
}

export function CreateContainerDialog({
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
  const lastResult = useListResult("create-container");
  const [form, fields] = useForm({
    id: "create-container",
    lastResult,
    defaultValue: { method: "manual", categoryId: preselect && categories.some((c) => c.id === preselect) ? preselect : "" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createContainerSchema(browserHasFile) }),
  });
  return (
    <ListUploadDialog
      title="Create Container"
      description="Store numbers in a container to suppress them in purges."
      closeHref="/containers"
      testId="create-container-dialog"
      form={form}
      hidden={{ intent: "create-container" }}
      limits={{ maxUploadText, maxUploadBytes }}
      numbers={{ method: fields.method, numbers: fields.numbers, file: fields.file }}
      submit={{ label: "Create Container", busyLabel: "Creating..." }}
    >
      <TextField label="Container name" field={fields.name} />
      <CategorySelect field={fields.categoryId} categories={categories} returnTo="create-container" />
      <DescriptionField field={fields.description} />
    </ListUploadDialog>
  );
}

export function EditContainerDialog({ container, categories }: { container: ContainerItem; categories: CategoryItem[] }) {
  const lastResult = useListResult("edit-container");
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
        <DialogButtons cancelTo="/containers" label="Save Changes" busyLabel="Saving..." />
      </Form>
    </ListDialog>
  );
}

export function AddNumbersDialog({ container, maxUploadText, maxUploadBytes }: { container: ContainerItem; maxUploadText: string; maxUploadBytes: number }) {
  const lastResult = useListResult("add-numbers");
  const [form, fields] = useForm({
    id: `add-numbers-${container.id}`,
    lastResult,
    defaultValue: { method: "manual" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addNumbersSchema(browserHasFile) }),
  });
  return (
    <ListUploadDialog
      title="Add Numbers"
      description={`Add numbers to ${container.name}.`}
      closeHref="/containers"
      testId="add-numbers-dialog"
      form={form}
      hidden={{ intent: "add-numbers", id: container.id }}
      limits={{ maxUploadText, maxUploadBytes }}
      numbers={{ method: fields.method, numbers: fields.numbers, file: fields.file }}
      submit={{ label: "Add Numbers", busyLabel: "Adding..." }}
    />
  );
}
