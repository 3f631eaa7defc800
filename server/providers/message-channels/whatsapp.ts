import {
  describeFailure,
  PROVIDER_TIMEOUT_MS,
  type OutgoingText,
  type SendOutcome,
  type TextChannelClient,
} from "./text-channel";

/** What the WhatsApp channel needs (server/settings/config.ts, WHATSAPP_*). */
export type WhatsAppSettings = { apiUrl: string; phoneNumberId: string; token: string };

/**
 * WhatsApp through the WhatsApp Business Cloud API: `POST {WHATSAPP_API_URL}/{phone number id}/messages`
 * with a bearer token and a `template` message (business-initiated texts must be approved
 * templates), its body parameters, and its quick-reply buttons' payloads (Confirm at index 0,
 * Cancel at 1). `to` is the number's digits with the country code, 923001234567. The answer is
 * `{messaging_product, contacts, messages: [{id}]}`, or `{error: {message, type, code, …}}`:
 * 401 (a token gone bad) and 429 (rate limits) are tried again later, as are 5xx and a network
 * failure; any other 4xx refuses this number or template for good, and the caller falls back to SMS.
 */
export class WhatsAppClient implements TextChannelClient {
  readonly id = "whatsapp" as const;
  constructor(private readonly settings: WhatsAppSettings) {}

  async send(text: OutgoingText): Promise<SendOutcome> {
    const components: unknown[] = [
      { type: "body", parameters: text.parameters.map((value) => ({ type: "text", text: value })) },
      ...text.buttons.map((payload, index) => ({
        type: "button",
        sub_type: "quick_reply",
        index: String(index),
        parameters: [{ type: "payload", payload }],
      })),
    ];
    let response: Response;
    try {
      response = await fetch(`${this.settings.apiUrl}/${this.settings.phoneNumberId}/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.settings.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: text.phone.replace(/^\+/, ""),
          type: "template",
          template: { name: text.template.name, language: { code: text.template.language }, components },
        }),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: "retry", error: `WhatsApp: ${describeFailure(error)}` };
    }
    const answer = (await response.json().catch(() => null)) as {
      messages?: { id?: unknown }[];
      error?: { message?: unknown; code?: unknown };
    } | null;
    const id = answer?.messages?.[0]?.id;
    if (response.ok && typeof id === "string" && id) return { kind: "sent", providerMessageId: id };
    const error = `WhatsApp ${response.status}: ${String(answer?.error?.message ?? "no message id in the answer").slice(0, 250)}${
      answer?.error?.code !== undefined ? ` (code ${String(answer.error.code)})` : ""
    }`;
    if (response.status === 401 || response.status === 429 || response.status >= 500 || response.ok) {
      return { kind: "retry", error };
    }
    return { kind: "refused", error };
  }
}
