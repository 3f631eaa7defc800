import path from "node:path";
import * as yup from "yup";
import type { OrderMessageKind } from "../modules/confirmation/order-confirmation.shared";
import { ConfigError, httpUrl } from "./setting-rules";

/**
 * The customers' confirmation of their orders by WhatsApp or SMS (docs/product.md, "Confirming
 * an order"): its part of the environment's schema, its types and the function that assembles
 * them. server/settings/config.ts combines the part into the one schema that reads the environment.
 */
export type WhatsAppConfig = {
  /** WHATSAPP_API_URL: the Graph API's versioned base, without a trailing slash. */
  apiUrl: string;
  phoneNumberId: string;
  token: string;
  /** The key of X-Hub-Signature-256 on the webhook's POSTs; null: every POST is refused. */
  appSecret: string | null;
  /** What Meta's GET verification must present; null: the verification is refused. */
  verifyToken: string | null;
  /** The approved templates' names, by message kind, and their language codes, by the order's language. */
  templates: Record<OrderMessageKind, string>;
  templateLanguages: { en: string; ur: string };
};

export type SmsConfig = {
  /** TWILIO_API_URL: Twilio's API base (or a gateway speaking its format), without a trailing slash. */
  apiUrl: string;
  accountSid: string;
  /** Basic auth's password and the key of X-Twilio-Signature on inbound replies. */
  authToken: string;
  from: string;
};

export type ConfirmationConfig = {
  /** Null: not configured (WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TOKEN unset). */
  whatsapp: WhatsAppConfig | null;
  /** Null: not configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM unset). */
  sms: SmsConfig | null;
  /** Without either, texts are written as files here: DATA_DIR/messages. */
  messagesDir: string;
  /** CONFIRM_REMIND_AFTER: hours after placing before the one reminder. */
  remindAfterHours: number;
  /** CONFIRM_CANCEL_AFTER: hours after placing before an unanswered order is cancelled; null (`off`): never. */
  cancelAfterHours: number | null;
};

/** The Graph API's versioned base (WhatsApp Business Cloud API) and Twilio's API base. */
export const WHATSAPP_API_BASE = "https://graph.facebook.com/v21.0";
export const TWILIO_API_BASE = "https://api.twilio.com";

function templateName() {
  return yup
    .string()
    .trim()
    .matches(/^[a-z0-9_]{1,512}$/, "must be a template's name: lower-case letters, digits and underscores");
}

function templateLanguage() {
  return yup
    .string()
    .trim()
    .matches(/^[a-z]{2,3}(_[A-Z]{2})?$/, "must be a template language code such as en, en_US or ur");
}

/** A number of hours, fractions allowed (tests use small ones); `off` where it may be turned off. */
function hours(options: { off?: boolean } = {}) {
  const message = `must be a number of hours greater than 0${options.off ? ", or off" : ""}`;
  return yup
    .string()
    .trim()
    .test("hours", message, (value) => {
      if (value === undefined) return true;
      if (options.off && value === "off") return true;
      return /^[0-9]+(\.[0-9]+)?$/.test(value) && Number(value) > 0 && Number(value) <= 24 * 365;
    });
}

export const confirmationSettingsSchema = yup.object({
  WHATSAPP_API_URL: httpUrl().default(WHATSAPP_API_BASE),
  WHATSAPP_PHONE_NUMBER_ID: yup
    .string()
    .trim()
    .matches(/^[0-9]{1,30}$/, { message: "must be the phone number's id, digits only", excludeEmptyString: true }),
  WHATSAPP_TOKEN: yup.string().trim(),
  WHATSAPP_APP_SECRET: yup.string().trim(),
  WHATSAPP_VERIFY_TOKEN: yup.string().trim(),
  WHATSAPP_TEMPLATE_CONFIRMATION: templateName().default("order_confirmation"),
  WHATSAPP_TEMPLATE_REMINDER: templateName().default("order_confirmation_reminder"),
  WHATSAPP_TEMPLATE_CANCELLATION: templateName().default("order_cancelled"),
  WHATSAPP_TEMPLATE_PAYMENT_AWAITED: templateName().default("order_payment_awaited"),
  WHATSAPP_TEMPLATE_PAYMENT_VERIFIED: templateName().default("order_payment_verified"),
  WHATSAPP_TEMPLATE_PAYMENT_REJECTED: templateName().default("order_payment_rejected"),
  WHATSAPP_TEMPLATE_NOT_PAID: templateName().default("order_not_paid"),
  WHATSAPP_TEMPLATE_DELIVERY_ATTEMPT: templateName().default("order_delivery_attempt"),
  WHATSAPP_TEMPLATE_CHOOSE_ORDER: templateName().default("order_choose"),
  WHATSAPP_TEMPLATE_LANGUAGE_EN: templateLanguage().default("en"),
  WHATSAPP_TEMPLATE_LANGUAGE_UR: templateLanguage().default("ur"),
  TWILIO_API_URL: httpUrl().default(TWILIO_API_BASE),
  TWILIO_ACCOUNT_SID: yup
    .string()
    .trim()
    .matches(/^[A-Za-z0-9]{1,64}$/, {
      message: "must be the account's SID (letters and digits)",
      excludeEmptyString: true,
    }),
  TWILIO_AUTH_TOKEN: yup.string().trim(),
  TWILIO_FROM: yup.string().trim().max(64, "must be a phone number or sender id of at most 64 characters"),
  CONFIRM_REMIND_AFTER: hours().default("12"),
  CONFIRM_CANCEL_AFTER: hours({ off: true }).default("48"),
});

/**
 * WhatsApp is on when its phone number's id and token are set, SMS when its account, token and
 * sender are; half a channel's settings is a mistake said at start rather than a silent loss.
 */
export function confirmationConfig(
  raw: yup.InferType<typeof confirmationSettingsSchema>,
  dataDir: string,
): ConfirmationConfig {
  const whatsappSet = [raw.WHATSAPP_PHONE_NUMBER_ID, raw.WHATSAPP_TOKEN].filter(Boolean).length;
  if (whatsappSet === 1) {
    throw new ConfigError(
      raw.WHATSAPP_TOKEN ? "WHATSAPP_PHONE_NUMBER_ID" : "WHATSAPP_TOKEN",
      "is required with WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TOKEN (both, or neither)",
    );
  }
  const smsSettings = {
    TWILIO_ACCOUNT_SID: raw.TWILIO_ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: raw.TWILIO_AUTH_TOKEN,
    TWILIO_FROM: raw.TWILIO_FROM,
  };
  const smsMissing = Object.entries(smsSettings).filter(([, value]) => !value);
  if (smsMissing.length > 0 && smsMissing.length < 3) {
    throw new ConfigError(
      smsMissing[0]![0],
      "is required with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM (all, or none)",
    );
  }
  return {
    whatsapp:
      whatsappSet === 2
        ? {
            apiUrl: raw.WHATSAPP_API_URL.replace(/\/+$/, ""),
            phoneNumberId: raw.WHATSAPP_PHONE_NUMBER_ID!,
            token: raw.WHATSAPP_TOKEN!,
            appSecret: raw.WHATSAPP_APP_SECRET || null,
            verifyToken: raw.WHATSAPP_VERIFY_TOKEN || null,
            templates: {
              confirmation: raw.WHATSAPP_TEMPLATE_CONFIRMATION,
              reminder: raw.WHATSAPP_TEMPLATE_REMINDER,
              cancellation: raw.WHATSAPP_TEMPLATE_CANCELLATION,
              "payment-awaited": raw.WHATSAPP_TEMPLATE_PAYMENT_AWAITED,
              "payment-verified": raw.WHATSAPP_TEMPLATE_PAYMENT_VERIFIED,
              "payment-rejected": raw.WHATSAPP_TEMPLATE_PAYMENT_REJECTED,
              "not-paid": raw.WHATSAPP_TEMPLATE_NOT_PAID,
              "delivery-attempt": raw.WHATSAPP_TEMPLATE_DELIVERY_ATTEMPT,
              "choose-order": raw.WHATSAPP_TEMPLATE_CHOOSE_ORDER,
            },
            templateLanguages: { en: raw.WHATSAPP_TEMPLATE_LANGUAGE_EN, ur: raw.WHATSAPP_TEMPLATE_LANGUAGE_UR },
          }
        : null,
    sms:
      smsMissing.length === 0
        ? {
            apiUrl: raw.TWILIO_API_URL.replace(/\/+$/, ""),
            accountSid: raw.TWILIO_ACCOUNT_SID!,
            authToken: raw.TWILIO_AUTH_TOKEN!,
            from: raw.TWILIO_FROM!,
          }
        : null,
    messagesDir: path.join(dataDir, "messages"),
    remindAfterHours: Number(raw.CONFIRM_REMIND_AFTER),
    cancelAfterHours: raw.CONFIRM_CANCEL_AFTER === "off" ? null : Number(raw.CONFIRM_CANCEL_AFTER),
  };
}
