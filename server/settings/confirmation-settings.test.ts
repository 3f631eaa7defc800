import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";
import { describeTextChannels } from "../start-up/start-store";

const env = (settings: Record<string, string> = {}) => ({
  SESSION_SECRET: "a session secret that is long enough for the store",
  DATA_DIR: path.join(os.tmpdir(), "waqt-text-channels-test"),
  ...settings,
});

const whatsapp = { WHATSAPP_PHONE_NUMBER_ID: "109876543210", WHATSAPP_TOKEN: "token" };
const sms = { TWILIO_ACCOUNT_SID: "AC0123", TWILIO_AUTH_TOKEN: "secret", TWILIO_FROM: "+15005550006" };

describe("the text channels' settings", () => {
  it("are off by default: texts go to files under DATA_DIR, and the start-up log says so", () => {
    const config = loadConfig(env());
    expect(config.confirmation).toMatchObject({
      whatsapp: null,
      sms: null,
      remindAfterHours: 12,
      cancelAfterHours: 48,
    });
    expect(describeTextChannels(config)).toBe(
      `no WhatsApp or SMS configured: texts are written as files under ${path.join(os.tmpdir(), "waqt-text-channels-test", "messages")}, and the admin confirms orders by phone`,
    );
  });

  it("turn WhatsApp and SMS on with their settings, the Graph API's and Twilio's bases by default", () => {
    const config = loadConfig(env({ ...whatsapp, ...sms, CONFIRM_REMIND_AFTER: "0.5", CONFIRM_CANCEL_AFTER: "off" }));
    expect(config.confirmation.whatsapp).toMatchObject({
      apiUrl: "https://graph.facebook.com/v21.0",
      templates: {
        confirmation: "order_confirmation",
        reminder: "order_confirmation_reminder",
        cancellation: "order_cancelled",
      },
      templateLanguages: { en: "en", ur: "ur" },
    });
    expect(config.confirmation.sms).toMatchObject({ apiUrl: "https://api.twilio.com", from: "+15005550006" });
    expect(describeTextChannels(config)).toBe(
      "texts by WhatsApp (https://graph.facebook.com/v21.0), falling back to SMS (https://api.twilio.com); a reminder after 0.5 h, unanswered orders never cancelled",
    );
  });

  it("refuse half a channel and hours that are not hours, naming the setting", () => {
    expect(() => loadConfig(env({ WHATSAPP_TOKEN: "token" }))).toThrow(
      new ConfigError(
        "WHATSAPP_PHONE_NUMBER_ID",
        "is required with WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TOKEN (both, or neither)",
      ),
    );
    expect(() => loadConfig(env({ TWILIO_ACCOUNT_SID: "AC0123" }))).toThrow("Invalid configuration: TWILIO_AUTH_TOKEN");
    expect(() => loadConfig(env({ CONFIRM_REMIND_AFTER: "soon" }))).toThrow(
      "Invalid configuration: CONFIRM_REMIND_AFTER must be a number of hours greater than 0",
    );
    expect(() => loadConfig(env({ CONFIRM_CANCEL_AFTER: "0" }))).toThrow(
      "Invalid configuration: CONFIRM_CANCEL_AFTER must be a number of hours greater than 0, or off",
    );
    expect(() => loadConfig(env({ WHATSAPP_TEMPLATE_CONFIRMATION: "Order Confirmation!" }))).toThrow(
      "Invalid configuration: WHATSAPP_TEMPLATE_CONFIRMATION",
    );
  });
});
