/**
 * A channel that texts a customer's mobile phone (WhatsApp, SMS), or writes the text to a file
 * when none is configured (docs/recipes.md, "A message channel"). It speaks its provider's API
 * and nothing else: which text to send, when, and what to do with the answer are the caller's
 * (server/flows/order-texts.ts), so a text channel knows no order.
 */
export type OutgoingText = {
  /** The receiver's number as the store keeps it, +923XXXXXXXXX. */
  phone: string;
  /** The WhatsApp template to use (its name by the message's kind) and its language code. */
  template: { name: string; language: string };
  /** The template's body parameters, in order; the SMS and the file take `body`. */
  parameters: string[];
  body: string;
  /** Quick-reply buttons' payloads (Confirm first, then Cancel); none for a text that asks nothing. */
  buttons: string[];
  /** A name for the file channel's file. */
  reference: string;
};

/** What a provider said about a text. */
export type SendOutcome =
  | { kind: "sent"; providerMessageId: string }
  /** Worth trying again later: the provider is down, slow, limiting us (429) or refused our credentials (401). */
  | { kind: "retry"; error: string }
  /** The provider refused this text for good (a number it cannot reach, a template it does not know). */
  | { kind: "refused"; error: string };

export interface TextChannelClient {
  readonly id: "whatsapp" | "sms" | "file";
  send(text: OutgoingText): Promise<SendOutcome>;
}

/** How long a provider has to answer before the text is tried again later. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** An error's words for the message's record: short, without anything the provider echoed back beyond its message. */
export function describeFailure(error: unknown): string {
  if (error instanceof Error)
    return (error.name === "TimeoutError" ? "No answer in time" : error.message).slice(0, 300);
  return String(error).slice(0, 300);
}
