import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { ConfigError, loadConfig } from "../../settings/config";
import { composeStatement } from "../../modules/shared/statement";
import { MessageChannels, messageOf, type Message } from "./message-channels";

const env = (settings: Record<string, string> = {}) => ({
  SESSION_SECRET: "a session secret that is long enough for the store",
  DATA_DIR: path.join(os.tmpdir(), "waqt-message-channels-test"),
  ...settings,
});

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const message = (to: string, subject: string): Message =>
  messageOf(
    { kind: "order-shipped", to, subject, text: `${subject} (text)`, html: `<p>${subject}</p>` },
    "+923001234567",
  );

describe("message channels", () => {
  it("are registered in one place and chosen by MESSAGE_CHANNELS, email by default", () => {
    expect(loadConfig(env()).providers.messageChannels).toEqual(["email"]);
    expect(() => loadConfig(env({ MESSAGE_CHANNELS: "whatsapp" }))).toThrow(ConfigError);
    expect(() => loadConfig(env({ MESSAGE_CHANNELS: "whatsapp" }))).toThrow(
      "Invalid configuration: MESSAGE_CHANNELS must be a comma-separated list of email (at least one)",
    );
    expect(MessageChannels.chosenBy(["email"]).chosen.map((channel) => channel.id)).toEqual(["email"]);
  });

  it("write email to the outbox in the caller's transaction: sent if it commits, never if it rolls back", async () => {
    const channels = MessageChannels.chosenBy(["email"]);
    await database.db.transaction((trx) => channels.queue(trx, [message("kept@example.com", "Kept")]));
    await database.db
      .transaction(async (trx) => {
        await channels.queue(trx, [message("rolled-back@example.com", "Rolled back")]);
        throw new Error("the change failed");
      })
      .catch(() => undefined);
    const rows = await database.db("outbox").whereIn("recipient", ["kept@example.com", "rolled-back@example.com"]);
    expect(rows.map((row) => [row.recipient, row.subject, row.state])).toEqual([
      ["kept@example.com", "Kept", "queued"],
    ]);
  });

  it("write the same as a part of the caller's one statement, and leave out a message with no address for them", async () => {
    const channels = MessageChannels.chosenBy(["email"]);
    const parts = channels.queueParts([
      message("part-a@example.com", "A"),
      message("part-b@example.com", "B"),
      message("", "Nobody"),
    ]);
    expect(parts.map((part) => part.name)).toEqual(["queued_email"]);
    const { sql, bindings } = composeStatement(parts, { sql: "SELECT 1 AS done" });
    await database.db.raw(sql, bindings);
    const rows = await database.db("outbox").whereIn("subject", ["A", "B", "Nobody"]).orderBy("subject");
    expect(rows.map((row) => [row.recipient, row.subject, row.kind])).toEqual([
      ["part-a@example.com", "A", "order-shipped"],
      ["part-b@example.com", "B", "order-shipped"],
    ]);
    expect(channels.queueParts([message("", "Nobody")])).toEqual([]);
  });
});
