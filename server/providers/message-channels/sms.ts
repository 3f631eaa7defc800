import {
  describeFailure,
  PROVIDER_TIMEOUT_MS,
  type OutgoingText,
  type SendOutcome,
  type TextChannelClient,
} from "./text-channel";

/** What the SMS channel needs (server/settings/config.ts, TWILIO_*). */
export type SmsSettings = {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  /** Where Twilio reports the text's progress (the store's /webhooks/sms); null: not asked. */
  statusCallback: string | null;
};

/**
 * SMS in Twilio's Programmable Messaging format, so that any gateway speaking it works:
 * `POST {TWILIO_API_URL}/2010-04-01/Accounts/{SID}/Messages.json`, form-encoded `To` (E.164,
 * +923001234567), `From` and `Body`, with basic auth (SID and auth token). The answer is the
 * Message resource (`sid`, `status`), or `{code, message, more_info, status}`: 401, 429, 5xx and
 * a network failure are tried again later; any other 4xx refuses the text for good.
 */
export class SmsClient implements TextChannelClient {
  readonly id = "sms" as const;
  constructor(private readonly settings: SmsSettings) {}

  async send(text: OutgoingText): Promise<SendOutcome> {
    const { apiUrl, accountSid, authToken, from } = this.settings;
    let response: Response;
    try {
      response = await fetch(`${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          To: text.phone,
          From: from,
          Body: text.body,
          ...(this.settings.statusCallback ? { StatusCallback: this.settings.statusCallback } : {}),
        }).toString(),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: "retry", error: `SMS: ${describeFailure(error)}` };
    }
    const answer = (await response.json().catch(() => null)) as {
      sid?: unknown;
      message?: unknown;
      code?: unknown;
    } | null;
    if (response.ok && typeof answer?.sid === "string" && answer.sid) {
      return { kind: "sent", providerMessageId: answer.sid };
    }
    const error = `SMS ${response.status}: ${String(answer?.message ?? "no message sid in the answer").slice(0, 250)}${
      answer?.code !== undefined && answer?.code !== null ? ` (code ${String(answer.code)})` : ""
    }`;
    if (response.status === 401 || response.status === 429 || response.status >= 500 || response.ok) {
      return { kind: "retry", error };
    }
    return { kind: "refused", error };
  }
}
