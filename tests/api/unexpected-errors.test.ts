import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { appRouter } from "@/server/api/root";
import { createCallerFactory, createTRPCRouter, publicProcedure, type TRPCContext } from "@/server/api/trpc";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { contextAs } from "../helpers/browser";

/** middlewares/unexpected-errors.ts: the one place an unexpected failure becomes INTERNAL_SERVER_ERROR. */
describe("unexpected failures", () => {
  let db: TestDatabase;
  let ctx: TRPCContext;
  beforeAll(async () => {
    db = await freshDatabase();
    ctx = await contextAs(db, null);
  });
  afterAll(() => db.close());

  // A database error's text can quote a row: it must never reach the client.
  const leaky = () => {
    throw new Error('duplicate key value violates unique constraint "profiles_email_key": Key (email)=(someone@example.test)');
  };
  const router = createTRPCRouter({
    named: publicProcedure.meta({ failure: "Failed to do the named thing. Please try again." }).query(leaky),
    unnamed: publicProcedure.query(leaky),
    refusal: publicProcedure.meta({ failure: "never shown" }).query(() => {
      throw new TRPCError({ code: "CONFLICT", message: "Already there." });
    }),
  });
  const caller = () => createCallerFactory(router)(ctx);

  async function failureOf(call: Promise<unknown>) {
    const error = await call.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  }

  it("answers with the procedure's own message, keeping the cause for the log only", async () => {
    const error = await failureOf(caller().named());
    expect(error.code).toBe("INTERNAL_SERVER_ERROR");
    expect(error.message).toBe("Failed to do the named thing. Please try again.");
    expect(String((error.cause as Error).message)).toContain("someone@example.test");
  });

  it("answers with the shop's general message where the procedure names none", async () => {
    const error = await failureOf(caller().unnamed());
    expect(error.message).toBe(messages.unexpected);
  });

  it("leaves a refusal a handler meant as it is", async () => {
    const error = await failureOf(caller().refusal());
    expect([error.code, error.message]).toEqual(["CONFLICT", "Already there."]);
  });

  it("gives a real procedure's unexpected failure its spec message (a contact message while the database fails)", async () => {
    const shopCaller = createCallerFactory(appRouter)({ ...ctx, db: { ...ctx.db, transaction: () => Promise.reject(new Error("relation does not exist")) } as TRPCContext["db"] });
    const error = await failureOf(shopCaller.contact.send({ name: "Thandi", email: "thandi@example.test", message: "Hello there, a question." }));
    expect([error.code, error.message]).toEqual(["INTERNAL_SERVER_ERROR", messages.contact.failed]);
  });
});
