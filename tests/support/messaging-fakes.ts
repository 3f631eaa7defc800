import crypto from "node:crypto";
import type http from "node:http";
import { FakeHttpServer, type ReceivedRequest } from "./fake-http-server";

/**
 * Local fakes of the two messaging APIs the store speaks, answering in their documented formats,
 * for the confirmation's tests: the WhatsApp Business Cloud API (Graph API) and Twilio's
 * Programmable Messaging API. Each records the requests it received and can be told to refuse
 * (an error in the API's own envelope) or to be down (503) until told otherwise.
 */

/** A request as a fake received it. */
export type FakeRequest = ReceivedRequest;

/** What a fake answers next: success, an error of the API's with its status, or down. */
export type FakeMode =
  { kind: "ok" } | { kind: "error"; status: number; code: number; message: string } | { kind: "down" };

abstract class FakeApi extends FakeHttpServer {
  readonly requests: FakeRequest[] = [];
  mode: FakeMode = { kind: "ok" };

  protected abstract answer(request: FakeRequest): { status: number; body: unknown };

  protected receive(request: FakeRequest, res: http.ServerResponse): void {
    this.requests.push(request);
    const { status, body } =
      this.mode.kind === "down" ? { status: 503, body: { message: "Service Unavailable" } } : this.answer(request);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
}

/**
 * The Cloud API's `POST /{phone-number-id}/messages`: with the right bearer token,
 * `{messaging_product, contacts: [{input, wa_id}], messages: [{id}]}`; otherwise, or when told
 * to, `{error: {message, type, code, error_subcode, fbtrace_id}}`.
 */
export class FakeWhatsAppCloud extends FakeApi {
  constructor(
    readonly phoneNumberId = "109876543210",
    readonly token = "test-whatsapp-token",
  ) {
    super();
  }

  /** The JSON bodies of the messages sent. */
  get sent(): any[] {
    return this.requests.map((request) => JSON.parse(request.body));
  }

  protected answer(request: FakeRequest) {
    const error = (status: number, code: number, message: string, type = "OAuthException") => ({
      status,
      body: {
        error: { message, type, code, error_subcode: 2494010, fbtrace_id: crypto.randomBytes(8).toString("hex") },
      },
    });
    if (request.headers.authorization !== `Bearer ${this.token}`) return error(401, 190, "Invalid OAuth access token.");
    if (request.method !== "POST" || request.url !== `/${this.phoneNumberId}/messages`) {
      return error(400, 100, "Unsupported post request.", "GraphMethodException");
    }
    if (this.mode.kind === "error") return error(this.mode.status, this.mode.code, this.mode.message);
    const body = JSON.parse(request.body) as { to: string };
    return {
      status: 200,
      body: {
        messaging_product: "whatsapp",
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.${crypto.randomBytes(12).toString("hex")}` }],
      },
    };
  }
}

/**
 * Twilio's `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (form-encoded To, From, Body;
 * basic auth): 201 with the Message resource (`sid`, `status: "queued"`, …); otherwise, or when
 * told to, `{code, message, more_info, status}`.
 */
export class FakeTwilio extends FakeApi {
  constructor(
    readonly accountSid = "AC0123456789abcdef0123456789abcdef",
    readonly authToken = "test-twilio-auth-token",
  ) {
    super();
  }

  /** The form fields of the messages sent. */
  get sent(): Record<string, string>[] {
    return this.requests.map((request) => Object.fromEntries(new URLSearchParams(request.body)));
  }

  protected answer(request: FakeRequest) {
    const error = (status: number, code: number, message: string) => ({
      status,
      body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
    });
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString("base64")}`;
    if (request.headers.authorization !== expected) return error(401, 20003, "Authenticate");
    if (request.url !== `/2010-04-01/Accounts/${this.accountSid}/Messages.json`) {
      return error(404, 20404, "The requested resource was not found");
    }
    if (this.mode.kind === "error") return error(this.mode.status, this.mode.code, this.mode.message);
    const form = new URLSearchParams(request.body);
    const now = new Date().toUTCString();
    return {
      status: 201,
      body: {
        sid: `SM${crypto.randomBytes(16).toString("hex")}`,
        account_sid: this.accountSid,
        to: form.get("To"),
        from: form.get("From"),
        body: form.get("Body"),
        status: "queued",
        num_segments: "1",
        direction: "outbound-api",
        api_version: "2010-04-01",
        date_created: now,
        date_updated: now,
        date_sent: null,
        error_code: null,
        error_message: null,
        price: null,
        price_unit: "USD",
        uri: `/2010-04-01/Accounts/${this.accountSid}/Messages.json`,
      },
    };
  }
}

/** The store's settings for both fakes (and the webhooks' secrets the tests sign with). */
export function messagingSettings(
  whatsapp: FakeWhatsAppCloud | null,
  twilio: FakeTwilio | null,
): Record<string, string> {
  return {
    ...(whatsapp
      ? {
          WHATSAPP_API_URL: whatsapp.url,
          WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
          WHATSAPP_TOKEN: whatsapp.token,
          WHATSAPP_APP_SECRET: WHATSAPP_APP_SECRET,
          WHATSAPP_VERIFY_TOKEN: WHATSAPP_VERIFY_TOKEN,
        }
      : {}),
    ...(twilio
      ? {
          TWILIO_API_URL: twilio.url,
          TWILIO_ACCOUNT_SID: twilio.accountSid,
          TWILIO_AUTH_TOKEN: twilio.authToken,
          TWILIO_FROM: "+15005550006",
        }
      : {}),
  };
}

export const WHATSAPP_APP_SECRET = "test-whatsapp-app-secret";
export const WHATSAPP_VERIFY_TOKEN = "test-whatsapp-verify-token";

/** Meta's X-Hub-Signature-256 of a raw body. */
export function whatsappSignature(rawBody: string, secret = WHATSAPP_APP_SECRET): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** Twilio's X-Twilio-Signature: HMAC-SHA1 of the full URL and the POST parameters sorted by name, base64. */
export function twilioSignature(url: string, params: Record<string, string>, authToken: string): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return crypto.createHmac("sha1", authToken).update(data).digest("base64");
}

/**
 * A text a customer sends to the store's number, as Twilio posts it to the SMS webhook: the
 * inbound message's form fields, signed with the account's auth token. Answers the webhook's status.
 */
export async function sendTwilioSms(
  baseUrl: string,
  twilio: FakeTwilio,
  message: { from: string; body: string; sid?: string },
): Promise<number> {
  const sid = message.sid ?? `SM${crypto.randomBytes(16).toString("hex")}`;
  const params = {
    SmsMessageSid: sid,
    SmsSid: sid,
    MessageSid: sid,
    SmsStatus: "received",
    Body: message.body,
    To: "+15005550006",
    From: message.from,
    AccountSid: twilio.accountSid,
    NumMedia: "0",
    ApiVersion: "2010-04-01",
  };
  const url = `${baseUrl}/webhooks/sms`;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(url, params, twilio.authToken),
    },
    body: new URLSearchParams(params).toString(),
  });
  return response.status;
}
