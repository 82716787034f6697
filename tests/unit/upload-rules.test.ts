import { describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { MAX_UPLOAD_BYTES, uploadProblem } from "@/lib/upload-rules";
import { UPLOAD_MESSAGES } from "@/server/storage/image-check";

const file = (name: string, type: string, size: number) => ({ name, type, size });

describe("an upload checked in the browser before it is sent", () => {
  it("says what the server says, in the server's words", () => {
    expect(UPLOAD_MESSAGES).toBe(messages.upload);
  });

  it("refuses a file over 5 MB, whatever it is", () => {
    expect(uploadProblem(file("slip.png", "image/png", 30 * 1024 * 1024), "proof")).toBe(messages.upload.too_large);
    expect(uploadProblem(file("me.jpg", "image/jpeg", MAX_UPLOAD_BYTES + 1), "image")).toBe(messages.upload.too_large);
    expect(uploadProblem(file("me.jpg", "image/jpeg", MAX_UPLOAD_BYTES), "image")).toBeNull();
  });

  it("refuses an empty file", () => {
    expect(uploadProblem(file("me.jpg", "image/jpeg", 0), "image")).toBe(messages.upload.empty);
  });

  it("takes images everywhere and a PDF only as a proof of payment", () => {
    expect(uploadProblem(file("slip.pdf", "application/pdf", 1000), "proof")).toBeNull();
    expect(uploadProblem(file("slip.pdf", "application/pdf", 1000), "image")).toBe(messages.upload.not_an_image);
    expect(uploadProblem(file("notes.txt", "text/plain", 1000), "proof")).toBe(messages.upload.not_a_proof);
    expect(uploadProblem(file("photo.webp", "", 1000), "image")).toBeNull();
    expect(uploadProblem(file("notes.txt", "", 1000), "image")).toBeNull(); // unknown to the browser: the server decides
    expect(uploadProblem(file("report.docx", "", 1000), "proof")).toBeNull();
  });
});
