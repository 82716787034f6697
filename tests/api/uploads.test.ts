import { randomUUID } from "node:crypto";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_MESSAGES } from "@/server/storage/image-check";
import { serveStoredFile } from "@/server/storage/serve-file";
import { IMAGE_REENCODE_MESSAGES, PDF_REFUSAL_MESSAGES } from "@/server/storage/upload-messages";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, contextAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { makeProofPdf } from "../helpers/pdfs";

/**
 * Uploads as customers and admins make them: every image is stored re-encoded without its
 * hidden data (POPIA: no location in photos), and proofs of payment may be PDF, judged by
 * content and shown to the owner and admins only.
 */
let db: TestDatabase;
let admin: TestUser;
let productId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await createUser(db, { role: "admin" });
  productId = (await db.kysely.selectFrom("products").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** A 40x20 phone photo taken "at" a home in Cape Town: GPS, camera, owner, orientation 6. */
async function phonePhoto(): Promise<Buffer> {
  const raw = Buffer.alloc(40 * 20 * 3, 200);
  return sharp(raw, { raw: { width: 40, height: 20, channels: 3 } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: "Samsung", Model: "Galaxy S23", Artist: "Thandi Nkosi" },
      IFD3: { GPSLatitudeRef: "S", GPSLatitude: "33/1 55/1 1234/100", GPSLongitudeRef: "E", GPSLongitude: "18/1 25/1 3456/100" },
    })
    .toBuffer();
}

/** The bytes of a stored file, fetched as `user` would through the file route. */
async function fetchStored(user: TestUser | null, url: string, options: { preview?: boolean } = {}) {
  const [, , bucket, ...segments] = new URL(url, "http://shop.test").pathname.split("/");
  const response = await serveStoredFile(await contextAs(db, user), bucket!, segments.map(decodeURIComponent), options);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function customerWithCart(): Promise<{ customer: TestUser; caller: Caller }> {
  const customer = await createUser(db);
  const caller = await callerAs(db, customer);
  await caller.cart.add({ productId });
  return { customer, caller };
}

async function checkoutWith(caller: Caller, proof: File) {
  const { reference } = await caller.checkout.start();
  if (!reference) throw new Error("a cart with items has a reference");
  const form = new FormData();
  form.set("proof", proof);
  form.set("reference", reference);
  form.set("idempotencyKey", randomUUID());
  return caller.checkout.placeOrder(form);
}

async function proofUrlOf(reference: string) {
  const orders = await (await callerAs(db, admin)).adminOrders.list({ search: reference });
  const order = orders.orders.find((each) => each.reference === reference);
  return order!;
}

async function expectNoHiddenData(bytes: Uint8Array) {
  expect(await exifr.parse(bytes, { tiff: true, gps: true, xmp: true, icc: true })).toBeUndefined();
  const meta = await sharp(bytes).metadata();
  // Orientation 6 applied to the pixels: the 40x20 photo now stands 20x40, with no tag left.
  expect([meta.width, meta.height, meta.orientation]).toEqual([20, 40, undefined]);
}

describe("photos without hidden data", () => {
  it("a phone photo as a product image is stored without EXIF or GPS, turned upright", async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ name: `Photo ${randomUUID()}`, description: "", price: "10", categoryId: (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id })) {
      form.set(key, value);
    }
    form.set("image", fileOf(await phonePhoto(), "stock.jpg", "image/jpeg"));
    const { id } = await (await callerAs(db, admin)).adminProducts.create(form);
    const product = await (await callerAs(db, null)).catalogue.byId({ id });
    const { response, bytes } = await fetchStored(null, product.imageUrl!);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    await expectNoHiddenData(bytes);
  });

  it("as one of a product's further pictures (issue 37), likewise", async () => {
    const form = new FormData();
    form.set("productId", productId);
    form.set("picture", fileOf(await phonePhoto(), "side.jpg", "image/jpeg"));
    form.set("alt", "The side");
    await (await callerAs(db, admin)).adminProducts.addPicture(form);
    const pictures = await (await callerAs(db, null)).catalogue.pictures({ id: productId });
    const { response, bytes } = await fetchStored(null, pictures.at(-1)!.url);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    await expectNoHiddenData(bytes);
  });

  it("as a profile picture, likewise", async () => {
    const user = await createUser(db);
    const form = new FormData();
    form.set("image", fileOf(await phonePhoto(), "me.jpg", "image/jpeg"));
    const { avatarUrl } = await (await callerAs(db, user)).profile.uploadAvatar(form);
    await expectNoHiddenData((await fetchStored(user, avatarUrl)).bytes);
  });

  it("as a proof of payment, likewise (the admin sees it clean)", async () => {
    const { caller } = await customerWithCart();
    const placed = await checkoutWith(caller, fileOf(await phonePhoto(), "proof.jpg", "image/jpeg"));
    const order = await proofUrlOf(placed.reference);
    expect(order.proofKind).toBe("image");
    await expectNoHiddenData((await fetchStored(admin, order.proofUrl!)).bytes);
  });

  it("refuses an image it cannot decode, storing nothing", async () => {
    const { customer, caller } = await customerWithCart();
    // A PNG whose structure checks out but whose pixel data is garbage.
    const png = makePng(8, 8);
    const broken = Buffer.from(png);
    broken.fill(0x41, 41, broken.length - 12);
    const error = await trpcRefusal(checkoutWith(caller, fileOf(broken, "proof.png")));
    expect(error.message).toBe(IMAGE_REENCODE_MESSAGES.undecodable);
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", customer.id).execute()).toEqual([]);
  });
});

describe("PDF proofs of payment", () => {
  it("a bank's one-page PDF is accepted, stored as it came, and served to the owner and admins only", async () => {
    const { customer, caller } = await customerWithCart();
    const pdf = makeProofPdf();
    const placed = await checkoutWith(caller, fileOf(pdf, "FNB proof.pdf", "application/pdf"));
    const order = await proofUrlOf(placed.reference);
    expect(order.proofKind).toBe("pdf");

    const asAdmin = await fetchStored(admin, order.proofUrl!);
    expect(asAdmin.response.status).toBe(200);
    expect(asAdmin.response.headers.get("content-type")).toBe("application/pdf");
    expect(asAdmin.response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(asAdmin.response.headers.get("content-security-policy")).toMatch(/default-src 'none'.*script-src 'none'/);
    expect(Buffer.from(asAdmin.bytes).equals(pdf)).toBe(true);
    expect((await fetchStored(customer, order.proofUrl!)).response.status).toBe(200);
    expect((await fetchStored(await createUser(db), order.proofUrl!)).response.status).toBe(404);
    expect((await fetchStored(null, order.proofUrl!)).response.status).toBe(404);

    // The proof modal's preview: the first page as a PNG, for the admin only.
    const preview = await fetchStored(admin, order.proofPreviewUrl!, { preview: true });
    expect(preview.response.headers.get("content-type")).toBe("image/png");
    expect((await sharp(preview.bytes).metadata()).format).toBe("png");
    expect((await fetchStored(await createUser(db), order.proofPreviewUrl!, { preview: true })).response.status).toBe(404);
  });

  // One page: objects 1-6 are the document's own, so extra objects start at 7.
  const refused: [string, Buffer, string][] = [
    ["with JavaScript", makeProofPdf({ catalog: "/Names << /JavaScript 7 0 R >>", extra: () => ["<< /Names [(init) 8 0 R] >>", "<< /S /JavaScript /JS (app.alert\\(1\\)) >>"] }), PDF_REFUSAL_MESSAGES.active_content],
    ["with an open action", makeProofPdf({ catalog: "/OpenAction 7 0 R", extra: () => ["<< /S /Launch /F (cmd.exe) >>"] }), PDF_REFUSAL_MESSAGES.active_content],
    ["with an embedded file", makeProofPdf({ catalog: "/Names << /EmbeddedFiles 7 0 R >>", extra: () => ["<< /Names [(a.exe) 8 0 R] >>", "<< /Type /Filespec /F (a.exe) /EF << /F 9 0 R >> >>", { dict: "<< /Type /EmbeddedFile >>", stream: "MZ" }] }), PDF_REFUSAL_MESSAGES.active_content],
    ["encrypted", makeProofPdf({ encrypt: { userPassword: "" } }), PDF_REFUSAL_MESSAGES.encrypted],
    ["truncated", makeProofPdf().subarray(0, 300), PDF_REFUSAL_MESSAGES.unreadable],
  ];
  for (const [what, bytes, message] of refused) {
    it(`refuses a PDF ${what}, with a message the customer can act on, placing nothing`, async () => {
      const { customer, caller } = await customerWithCart();
      expect((await trpcRefusal(checkoutWith(caller, fileOf(bytes, "proof.pdf", "application/pdf")))).message).toBe(message);
      expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", customer.id).execute()).toEqual([]);
    });
  }

  it("judges by content: a PDF named .png is a PDF, a PNG named .pdf is an image", async () => {
    const first = await customerWithCart();
    const asPng = await proofUrlOf((await checkoutWith(first.caller, fileOf(makeProofPdf(), "proof.png", "image/png"))).reference);
    expect(asPng.proofKind).toBe("pdf");
    expect((await fetchStored(admin, asPng.proofUrl!)).response.headers.get("content-type")).toBe("application/pdf");
    const second = await customerWithCart();
    const asPdf = await proofUrlOf((await checkoutWith(second.caller, fileOf(makePng(), "proof.pdf", "application/pdf"))).reference);
    expect(asPdf.proofKind).toBe("image");
    expect((await fetchStored(admin, asPdf.proofUrl!)).response.headers.get("content-type")).toBe("image/png");
  });

  it("product images and profile pictures stay images only", async () => {
    const form = new FormData();
    form.set("image", fileOf(makeProofPdf(), "me.pdf", "application/pdf"));
    expect((await trpcRefusal((await callerAs(db, await createUser(db))).profile.uploadAvatar(form))).message).toBe(UPLOAD_MESSAGES.not_an_image);
  });
});


