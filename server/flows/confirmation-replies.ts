import * as yup from "yup";
import type { Database } from "../db/database";
import {
  lockNewestAwaiting,
  lockOrderByToken,
  queueOrderTexts,
  recordReply,
  recordReplyOutcome,
  recordTextStatus,
  type AnsweringOrder,
  type ReplyReceived,
} from "../modules/confirmation/order-confirmation";
import { systemClock, type Clock } from "../modules/shared/clock";
import { ConflictError, InvalidInputError, NotFoundError } from "../modules/shared/errors.shared";
import { isStoredPakistaniMobile } from "../modules/shared/phone.shared";
import { BUTTON_PAYLOAD } from "./order-texts";
import type { ConfirmationAnswer, OrderConfirmationFlow } from "./order-confirmation";

/**
 * Replies to the confirmation (docs/product.md, "Confirming an order"): what the WhatsApp and SMS
 * webhooks deliver, once their signature is checked (server/http/webhooks.ts). A button reply
 * names its order by its token; a written reply ("1", "haan", "نہیں", …) answers the newest
 * order of that phone still waiting. Each reply is recorded once by its provider's id, so a
 * webhook delivered again changes nothing; the providers' reports on texts are recorded on them,
 * and a WhatsApp text reported failed goes by SMS. Anything the store cannot use (an unknown
 * order, an old message, words it does not read) is recorded and otherwise ignored.
 */
export class ConfirmationRepliesFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: { confirmation: OrderConfirmationFlow; smsConfigured: boolean; clock?: Clock },
  ) {}

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /** A WhatsApp webhook's body (Meta's `whatsapp_business_account` notification); 400 when it is not one. */
  async whatsappNotification(input: unknown): Promise<void> {
    let notification: yup.InferType<typeof whatsappNotificationSchema>;
    try {
      notification = whatsappNotificationSchema.validateSync(input, { abortEarly: true });
    } catch (error) {
      if (error instanceof yup.ValidationError)
        throw new InvalidInputError([{ field: error.path || "body", message: error.message }]);
      throw error;
    }
    for (const entry of notification.entry) {
      for (const change of entry.changes) {
        for (const message of change.value.messages ?? []) {
          const phone = `+${message.from.replace(/\D/g, "")}`;
          // A button's payload carries the order's token: the reply keeps the button's words, never the token.
          const payload = message.button?.payload ?? message.interactive?.button_reply?.id ?? null;
          const body = message.button?.text ?? message.text?.body ?? (payload ? "(button)" : "");
          await this.reply({ channel: "whatsapp", providerMessageId: message.id, phone, body }, payload);
        }
        for (const status of change.value.statuses ?? []) {
          const reported = WHATSAPP_STATUSES[status.status];
          if (!reported) continue;
          const error = status.errors?.[0];
          await this.textStatus(
            "whatsapp",
            status.id,
            reported,
            error ? `WhatsApp: ${error.title ?? ""} (code ${error.code ?? "?"})` : undefined,
          );
        }
      }
    }
  }

  /** A Twilio webhook's form: an inbound SMS (Body) or a status callback (MessageStatus); 400 when it is neither. */
  async smsNotification(input: unknown): Promise<void> {
    let form: yup.InferType<typeof twilioFormSchema>;
    try {
      form = twilioFormSchema.validateSync(input, { abortEarly: true });
    } catch (error) {
      if (error instanceof yup.ValidationError)
        throw new InvalidInputError([{ field: error.path || "body", message: error.message }]);
      throw error;
    }
    if (form.Body !== undefined && form.From) {
      await this.reply({ channel: "sms", providerMessageId: form.MessageSid, phone: form.From, body: form.Body });
      return;
    }
    const reported = form.MessageStatus ? TWILIO_STATUSES[form.MessageStatus] : undefined;
    if (reported) {
      await this.textStatus(
        "sms",
        form.MessageSid,
        reported,
        form.ErrorCode ? `SMS error ${form.ErrorCode}` : undefined,
      );
    }
  }

  private async reply(reply: ReplyReceived, payload: string | null = null): Promise<void> {
    await this.db.transaction(async (trx) => {
      const replyId = await recordReply(trx, reply);
      if (!replyId) return;
      const button = payload ? BUTTON_PAYLOAD.exec(payload.trim()) : null;
      const answer: ConfirmationAnswer | null = button
        ? button[1] === "CONFIRM"
          ? "confirm"
          : "cancel"
        : wordAnswer(reply.body);
      if (!answer) return;
      let order: AnsweringOrder | null = null;
      try {
        order = button
          ? await lockOrderByToken(trx, button[2]!)
          : isStoredPakistaniMobile(reply.phone)
            ? await lockNewestAwaiting(trx, reply.phone)
            : null;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
      if (!order) return;
      try {
        await this.deps.confirmation.answer(trx, order, answer, reply.channel);
        await recordReplyOutcome(trx, replyId, {
          orderId: order.id,
          action: answer === "confirm" ? "confirmed" : "cancelled",
        });
      } catch (error) {
        // Shipped, booked or cancelled before the reply came: recorded, nothing else.
        if (!(error instanceof ConflictError)) throw error;
        await recordReplyOutcome(trx, replyId, { orderId: order.id, action: "none" });
      }
    });
  }

  private async textStatus(
    channel: "whatsapp" | "sms",
    providerMessageId: string,
    status: ReportedStatus,
    error?: string,
  ) {
    await this.db.transaction(async (trx) => {
      const failed = await recordTextStatus(trx, { channel, providerMessageId, status, error, at: this.now() });
      // The same text by SMS (its send job comes with it: migration 20261125000029).
      if (failed && failed.channel === "whatsapp" && this.deps.smsConfigured) {
        await queueOrderTexts(trx, [{ ...failed, channel: "sms" }]);
      }
    });
  }
}

type ReportedStatus = "sent" | "delivered" | "read" | "failed";

const WHATSAPP_STATUSES: Record<string, ReportedStatus> = {
  sent: "sent",
  delivered: "delivered",
  read: "read",
  failed: "failed",
};
const TWILIO_STATUSES: Record<string, ReportedStatus> = {
  sent: "sent",
  delivered: "delivered",
  read: "read",
  undelivered: "failed",
  failed: "failed",
};

/** Written answers, as customers write them (Latin or Urdu script, any case, punctuation around ignored). */
const CONFIRM_WORDS = new Set(["1", "yes", "haan", "ہاں"]);
const CANCEL_WORDS = new Set(["2", "no", "nahi", "نہیں"]);

export function wordAnswer(body: string): ConfirmationAnswer | null {
  const word = body
    .normalize("NFC")
    .trim()
    .toLowerCase()
    .replace(/^[\s.,!?۔،؟]+|[\s.,!?۔،؟]+$/g, "");
  if (CONFIRM_WORDS.has(word)) return "confirm";
  if (CANCEL_WORDS.has(word)) return "cancel";
  return null;
}

const idText = (max: number) => yup.string().trim().required().max(max);

/** Meta's notification, as far as the store reads it (other fields and events pass untouched). */
const whatsappNotificationSchema = yup.object({
  object: yup.string().max(100),
  entry: yup
    .array(
      yup.object({
        changes: yup
          .array(
            yup.object({
              field: yup.string().max(100),
              value: yup
                .object({
                  messages: yup.array(
                    yup.object({
                      id: idText(200),
                      from: idText(32),
                      type: yup.string().max(50),
                      button: yup
                        .object({ payload: yup.string().max(1000), text: yup.string().max(1000) })
                        .default(undefined),
                      text: yup.object({ body: yup.string().max(4096) }).default(undefined),
                      interactive: yup
                        .object({ button_reply: yup.object({ id: yup.string().max(1000) }).default(undefined) })
                        .default(undefined),
                    }),
                  ),
                  statuses: yup.array(
                    yup.object({
                      id: idText(200),
                      status: yup.string().required().max(50),
                      errors: yup.array(yup.object({ code: yup.mixed(), title: yup.string().max(300) })),
                    }),
                  ),
                })
                .required(),
            }),
          )
          .required(),
      }),
    )
    .required(),
});

/** Twilio's inbound message or status callback parameters, as far as the store reads them. */
const twilioFormSchema = yup.object({
  MessageSid: idText(100),
  From: yup.string().trim().max(32),
  Body: yup.string().max(1600),
  MessageStatus: yup.string().max(50),
  ErrorCode: yup.string().max(20),
});
