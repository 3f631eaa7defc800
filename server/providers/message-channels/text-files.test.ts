import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TextFilesClient } from "./text-files";

const DAY_MS = 24 * 60 * 60 * 1000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("text files written without WhatsApp or SMS", () => {
  it("are removed once older than the days kept, as mail files are; other files stay", async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "waqt-texts-")), "messages");
    dirs.push(path.dirname(dir));
    const client = new TextFilesClient(dir, { keepDays: 7 });
    await client.send({
      phone: "+923001234567",
      template: { name: "order_confirmation", language: "en" },
      parameters: [],
      body: "Confirm your order: https://waqt.pk/c/x",
      buttons: [],
      reference: "AB12CD34",
    });
    const [written] = fs.readdirSync(dir);
    expect(written).toMatch(/^file-.*-AB12CD34\.txt$/);
    const notOurs = path.join(dir, "notes.md");
    fs.writeFileSync(notOurs, "kept by the operator");
    const writtenAt = fs.statSync(path.join(dir, written!)).mtime;

    // The clock is moved instead of waiting: a file exactly 7 days old stays, one a moment older goes.
    expect(await client.removeOldFiles(new Date(writtenAt.getTime() + 7 * DAY_MS))).toBe(0);
    expect(fs.existsSync(path.join(dir, written!))).toBe(true);
    expect(await client.removeOldFiles(new Date(writtenAt.getTime() + 7 * DAY_MS + 1000))).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(["notes.md"]);
  });

  it("answers 0 when nothing was ever written", async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "waqt-texts-")), "never");
    dirs.push(path.dirname(dir));
    expect(await new TextFilesClient(dir, { keepDays: 7 }).removeOldFiles()).toBe(0);
  });
});
