import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PRODUCT_PICTURES } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";

/**
 * A product's pictures through Product Management and the shop (issue 37, item 4): added as
 * every upload (checked, re-encoded), with alt text, reordered, one chosen as the card's picture,
 * removed with their files, and read by everyone in the owner's order.
 */

const mp = messages.productPictures;
let db: TestDatabase;
let admin: Caller;
let visitor: Caller;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  visitor = await callerAs(db, null);
  categoryId = (await admin.adminProducts.categories())[0]!.id;
});

afterAll(async () => {
  await db?.close();
});

async function newProduct(name = "Golf shirt") {
  const form = new FormData();
  form.set("name", name);
  form.set("price", "250.00");
  form.set("categoryId", categoryId);
  form.set("image", fileOf(makePng(40, 30), "front.png"));
  return (await admin.adminProducts.create(form)).id;
}

function pictureForm(productId: string, alt: string, picture: File | null = fileOf(makePng(30, 30, 90), "back.png")) {
  const form = new FormData();
  form.set("productId", productId);
  if (picture) form.set("picture", picture);
  form.set("alt", alt);
  return form;
}

async function outcome(promise: Promise<unknown>) {
  return promise.then(
    () => "OK",
    (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
  );
}

const storedPaths = async () => (await db.kysely.selectFrom("storage.objects").select("name").where("bucket_id", "=", "products-services").execute()).map((row) => row.name);
const pathOf = (url: string) => decodeURIComponent(url.replace("/files/products-services/", ""));

describe("a product's pictures", () => {
  it("a new product's image is its first picture and card picture, described by its name", async () => {
    const id = await newProduct("Party pack");
    const pictures = await visitor.catalogue.pictures({ id });
    expect(pictures).toEqual([expect.objectContaining({ alt: "Party pack", isCard: true })]);
    expect(pictures[0]!.url).toBe((await visitor.catalogue.byId({ id })).imageUrl);
  });

  it("adds pictures with alt text, in order; the shop shows them at once", async () => {
    const id = await newProduct();
    await visitor.catalogue.pictures({ id }); // cached now: the additions must drop it
    expect((await admin.adminProducts.addPicture(pictureForm(id, "  The back  "))).message).toBe(mp.added);
    await admin.adminProducts.addPicture(pictureForm(id, "The collar", fileOf(makePng(20, 20, 30), "collar.png")));
    const pictures = await visitor.catalogue.pictures({ id });
    expect(pictures.map((p) => [p.alt, p.isCard])).toEqual([["Golf shirt", true], ["The back", false], ["The collar", false]]);
    expect(pictures[1]!.url).toMatch(/^\/files\/products-services\/\d+_back\.png$/);
    expect(await admin.adminProducts.pictures({ productId: id })).toEqual(pictures);
  });

  it("refuses a picture without alt text, without a file, or that is not an image, storing nothing", async () => {
    const id = await newProduct();
    const before = await storedPaths();
    expect(await outcome(admin.adminProducts.addPicture(pictureForm(id, "   ")))).toBe(`BAD_REQUEST: ${mp.altRequired}`);
    expect(await outcome(admin.adminProducts.addPicture(pictureForm(id, "x".repeat(201))))).toBe(`BAD_REQUEST: ${mp.altTooLong}`);
    expect(await outcome(admin.adminProducts.addPicture(pictureForm(id, "Back", null)))).toBe(`BAD_REQUEST: ${mp.pictureRequired}`);
    expect(await outcome(admin.adminProducts.addPicture(pictureForm(id, "Back", fileOf("not an image", "x.png"))))).toMatch(/^BAD_REQUEST: Only JPEG/);
    expect(await storedPaths()).toEqual(before);
    expect(await visitor.catalogue.pictures({ id })).toHaveLength(1);
  });

  it(`refuses more than ${MAX_PRODUCT_PICTURES} pictures, and removes the refused upload`, async () => {
    const id = await newProduct();
    for (let i = 2; i <= MAX_PRODUCT_PICTURES; i++) await admin.adminProducts.addPicture(pictureForm(id, `View ${i}`));
    const before = await storedPaths();
    expect(await outcome(admin.adminProducts.addPicture(pictureForm(id, "One too many")))).toBe(`BAD_REQUEST: ${mp.tooMany(MAX_PRODUCT_PICTURES)}`);
    expect(await storedPaths()).toEqual(before);
  });

  it("reorders with up and down, chooses the card's picture (the card, cart and list show it), and saves alt text", async () => {
    const id = await newProduct();
    await admin.adminProducts.addPicture(pictureForm(id, "The back"));
    const [front, back] = await admin.adminProducts.pictures({ productId: id });
    expect((await admin.adminProducts.movePicture({ id: back!.id, direction: "up" })).message).toBe(mp.moved);
    expect((await visitor.catalogue.pictures({ id })).map((p) => p.alt)).toEqual(["The back", "Golf shirt"]);
    await admin.adminProducts.movePicture({ id: back!.id, direction: "up" }); // first already: nothing moves
    expect((await visitor.catalogue.pictures({ id })).map((p) => p.alt)).toEqual(["The back", "Golf shirt"]);

    expect((await admin.adminProducts.setCardPicture({ id: back!.id })).message).toBe(mp.cardChosen);
    expect((await visitor.catalogue.byId({ id })).imageUrl).toBe(back!.url);
    expect((await admin.adminProducts.list()).find((p) => p.id === id)!.imageUrl).toBe(back!.url);

    expect((await admin.adminProducts.savePictureAlt({ id: front!.id, alt: "The front, buttoned" })).message).toBe(mp.altSaved);
    expect((await visitor.catalogue.pictures({ id })).map((p) => p.alt)).toEqual(["The back", "The front, buttoned"]);
  });

  it("removes a picture and its file; the card's picture passes to the first left; the last one stays", async () => {
    const id = await newProduct();
    await admin.adminProducts.addPicture(pictureForm(id, "The back"));
    const [front, back] = await admin.adminProducts.pictures({ productId: id });
    expect((await admin.adminProducts.removePicture({ id: front!.id })).message).toBe(mp.removed);
    expect(await storedPaths()).not.toContain(pathOf(front!.url));
    expect(await visitor.catalogue.pictures({ id })).toEqual([{ ...back!, isCard: true }]);
    expect((await visitor.catalogue.byId({ id })).imageUrl).toBe(back!.url);
    expect(await outcome(admin.adminProducts.removePicture({ id: back!.id }))).toBe(`BAD_REQUEST: ${mp.lastPicture}`);
    expect(await outcome(admin.adminProducts.removePicture({ id: front!.id }))).toBe(`NOT_FOUND: ${mp.pictureNotFound}`);
    expect(await outcome(admin.adminProducts.savePictureAlt({ id: front!.id, alt: "Gone" }))).toBe(`NOT_FOUND: ${mp.pictureNotFound}`);
  });

  it("a new image on the edit form replaces the card picture's file, keeping its alt text", async () => {
    const id = await newProduct();
    await admin.adminProducts.savePictureAlt({ id: (await admin.adminProducts.pictures({ productId: id }))[0]!.id, alt: "Front view" });
    const form = new FormData();
    for (const [key, value] of Object.entries({ id, name: "Golf shirt", price: "250.00", categoryId })) form.set(key, value);
    form.set("image", fileOf(makePng(50, 40), "new-front.png"));
    await admin.adminProducts.update(form);
    const pictures = await visitor.catalogue.pictures({ id });
    expect(pictures).toEqual([expect.objectContaining({ alt: "Front view", isCard: true, url: expect.stringMatching(/_new-front\.png$/) })]);
  });

  it("deleting a product removes every picture's file", async () => {
    const id = await newProduct();
    await admin.adminProducts.addPicture(pictureForm(id, "The back"));
    const paths = (await admin.adminProducts.pictures({ productId: id })).map((p) => pathOf(p.url));
    await admin.adminProducts.delete({ id });
    const stored = await storedPaths();
    for (const path of paths) expect(stored).not.toContain(path);
    expect(await visitor.catalogue.pictures({ id })).toEqual([]);
  });
});
