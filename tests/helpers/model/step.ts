/**
 * What every command of tests/api/model.test.ts is built on (commands.ts, quote-commands.ts): a
 * step that runs, then checks the invariants, and a customer's call through their own browser.
 */
import type fc from "fast-check";
import { messages } from "@/lib/messages";
import type { Caller } from "../browser";
import { answer, countStep, expectRefused, type Answer } from "./answers";
import { checkInvariants } from "./invariants";
import type { RealShop } from "./real-shop";
import type { ModelCustomer, ShopModel } from "./shop-model";

export type ShopCommand = fc.AsyncCommand<ShopModel, RealShop>;

/** Runs the command's own step, then the invariants. */
export abstract class Step implements ShopCommand {
  /** When the command makes sense (fast-check skips it otherwise); always, unless a command says. */
  precondition?(model: Readonly<ShopModel>): boolean;
  check(model: Readonly<ShopModel>): boolean {
    return this.precondition?.(model) ?? true;
  }
  protected abstract step(model: ShopModel, real: RealShop): Promise<void>;
  async run(model: ShopModel, real: RealShop): Promise<void> {
    countStep(String(this));
    await this.step(model, real);
    await checkInvariants(model, real);
  }
  abstract toString(): string;
}

/** A customer's call, made through their browser (their session cookie, or none). */
export function asCustomer<T>(real: RealShop, index: number, what: string, work: (caller: Caller) => Promise<T>): Promise<Answer<T>> {
  return answer(
    real.browsers[index]!.call((caller) => work(caller)),
    what,
  );
}

export function signedOut(customer: ModelCustomer): boolean {
  return customer.deleted || !customer.signedIn;
}

/** Refused as a visitor: every cart, checkout and profile call needs a session. */
export function expectSignInRequired(result: Answer<unknown>, what: string) {
  expectRefused(result, what, "UNAUTHORIZED", messages.auth.signInRequired);
}

