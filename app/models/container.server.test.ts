import { beforeAll, describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { CategoryNameTakenError, createCategory, getCategory, listCategories } from "./category.server";
import { CategoryNotFoundError, createContainer, getContainer, listContainers, parseListId, updateContainer } from "./container.server";

const { handle } = useAppTestDb();
let alice = "";
let bob = "";

async function makeUser(email: string): Promise<string> {
  const r = await handle()
    .db.insertInto("users")
    .values({
      email,
      first_name: "T",
      last_name: "User",
      company: "",
      phone_number: "",
      password_hash: "x",
      role: "NormalUser",
      status: "Active",
      email_confirmed: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return r.id;
}

beforeAll(async () => {
  alice = await makeUser("alice@models.test");
  bob = await makeUser("bob@models.test");
});

describe("categories", () => {
  it("are per user, unique by name in any case, listed by name", async () => {
    const db = handle().db;
    await createCategory(db, { userId: alice, name: " Solar ", description: "leads" });
    await createCategory(db, { userId: alice, name: "auto" });
    await expect(createCategory(db, { userId: alice, name: "SOLAR" })).rejects.toBeInstanceOf(CategoryNameTakenError);
    await createCategory(db, { userId: bob, name: "Solar" });
    const mine = await listCategories(db, alice);
    expect(mine.map((c) => c.name)).toEqual(["auto", "Solar"]);
    expect(mine[1].description).toBe("leads");
    expect(await getCategory(db, { id: mine[0].id, userId: bob })).toBeUndefined();
    expect(await getCategory(db, { id: "not-a-uuid", userId: alice })).toBeUndefined();
  });
});

describe("containers", () => {
  it("are created in the user's own category, listed newest first, and hidden from others", async () => {
    const db = handle().db;
    const cat = await createCategory(db, { userId: alice, name: "Insurance" });
    const bobCat = await createCategory(db, { userId: bob, name: "Insurance" });
    const first = await createContainer(db, { userId: alice, name: "First", categoryId: cat.id, description: "d1" });
    const second = await createContainer(db, { userId: alice, name: "Second", categoryId: cat.id });
    await expect(createContainer(db, { userId: alice, name: "X", categoryId: bobCat.id })).rejects.toBeInstanceOf(CategoryNotFoundError);
    await expect(createContainer(db, { userId: alice, name: "X", categoryId: "nope" })).rejects.toBeInstanceOf(CategoryNotFoundError);
    const list = await listContainers(db, alice);
    expect(list.map((c) => c.name)).toEqual(["Second", "First"]);
    expect(list[1]).toMatchObject({ categoryName: "Insurance", description: "d1", size: 0 });
    expect(await listContainers(db, bob)).toEqual([]);
    expect(await getContainer(db, { id: first.id, userId: bob })).toBeUndefined();

    expect(await updateContainer(db, { id: second.id, userId: bob, name: "Hacked", categoryId: bobCat.id })).toBeUndefined();
    const updated = await updateContainer(db, { id: second.id, userId: alice, name: "Renamed", categoryId: cat.id, description: "new" });
    expect(updated).toMatchObject({ name: "Renamed", description: "new" });
  });

  it("parses list ids strictly", () => {
    expect(parseListId("12")).toBe(12);
    expect(parseListId("0")).toBeNull();
    expect(parseListId("1e3")).toBeNull();
    expect(parseListId("99999999999")).toBeNull();
    expect(parseListId(undefined)).toBeNull();
  });
});
