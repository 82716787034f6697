import { afterEach, describe, expect, it, vi } from "vitest";
import { loggableCause, logCallError } from "@/server/http/log-call-error";
import { describeCall, developmentCallLog } from "@/trpc/call-logger";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("the browser's call log", () => {
  it("is not there in production", () => {
    vi.stubEnv("NODE_ENV", "production");
    expect(developmentCallLog()).toEqual([]);
  });

  it("is there in development, naming a call without its input", () => {
    vi.stubEnv("NODE_ENV", "development");
    expect(developmentCallLog()).toHaveLength(1);
    const line = describeCall({ id: 1, type: "mutation", path: "auth.signIn", direction: "down", elapsedMs: 12 });
    expect(line).toBe("<< mutation #1 auth.signIn (12 ms)");
  });
});

describe("the server's log of a failed call", () => {
  it("keeps the cause's kind, code and stack but not a database error's detail", () => {
    const cause = Object.assign(new Error("duplicate key value violates unique constraint"), {
      code: "23505",
      constraint: "profiles_email_key",
      detail: "Key (email)=(someone@example.com) already exists.",
    });
    const text = loggableCause(cause);
    expect(text).toContain("[23505]");
    expect(text).toContain("constraint=profiles_email_key");
    expect(text).toContain("duplicate key value");
    expect(text).not.toContain("someone@example.com");
  });

  it("prints the path and never the input", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    logCallError("auth.signIn", new Error("the database went away"));
    const printed = error.mock.calls.flat().join(" ");
    expect(printed).toContain("[trpc] auth.signIn failed");
    expect(printed).toContain("the database went away");
  });
});
