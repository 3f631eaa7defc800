import type { Knex } from "knex";
import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import type { PhotoLane } from "../modules/catalog/photo-lane";
import {
  inspectPhoto,
  prepareScreenshot,
  type PhotoUpload,
  type PreparedScreenshot,
  type ReadFormWithPhotos,
} from "../modules/catalog/photo-processing";
import type { MailContext } from "../modules/mail/mail-layout";
import { bankAccountOf } from "../modules/payments/bank-transfer.shared";
import { queueOrderTexts } from "../modules/confirmation/order-confirmation";
import type { PaymentTextKind, TextChannel } from "../modules/confirmation/order-confirmation.shared";
import type { LiveOrder } from "../modules/order-life/order-life";
import { orderStatusMail } from "../modules/orders/order-mails";
import { paymentReferenceSchema, paymentVerdictSchema, unpaidTransferIds } from "../modules/payments/order-payment";
import { bankTransferSettings } from "../modules/confirmation/order-rules";
import { NOT_PAID_REASON, SCREENSHOT_FIELD } from "../modules/orders/order-values.shared";
import type { PublicOrder } from "../modules/orders/order.shape";
import {
  type ScreenshotSize,
  type ScreenshotViewer,
  readPaymentScreenshot,
  storePaymentScreenshot,
} from "../modules/payments/payment-screenshots";
import { paymentRejectedMail, paymentSubmittedMail, paymentVerifiedMail } from "../modules/payments/payment-mails";
import { systemClock, type Clock } from "../modules/shared/clock";
import { BusyError, InvalidInputError, NotFoundError, TooLargeError } from "../modules/shared/errors.shared";
import { validateInput } from "../modules/shared/validation";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import type { OrderLifeFlow } from "./order-life";
import { readOrder } from "../modules/order-life/orders-reading";

/** Orders cancelled by one sweep at most; the next minute's takes the rest. */
const UNPAID_BATCH = 200;

/**
 * Paying in advance by bank transfer or Raast (docs/product.md, "Paying in advance"), after
 * checkout: the customer's transaction reference, the admin's verdict, and the sweep that cancels
 * transfers left unpaid, each with its mails and the customer's text, in one transaction. The ship guard is the
 * fulfilment flow's (fulfilment.ts).
 */
export class AdvancePaymentFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      mail: MailContext;
      messages: MessageChannels;
      /** The channel a new text tries first, the confirmation's (services.ts). */
      textChannel: TextChannel;
      life: OrderLifeFlow;
      /** The process's one photo lane, where a screenshot is decoded (services.ts). */
      photoLane: PhotoLane;
      clock?: Clock;
    },
  ) {}

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /**
   * The customer's text about this step of the payment, to the order's phone in its language,
   * written in the caller's transaction as the confirmation's texts are (order-texts.ts sends it);
   * an order without a phone is told by mail only.
   */
  private async text(trx: Knex, order: LiveOrder, kind: PaymentTextKind): Promise<void> {
    if (!order.phone) return;
    await queueOrderTexts(trx, [
      { orderId: order.id, channel: this.deps.textChannel, kind, language: order.language, phone: order.phone },
    ]);
  }

  /** The store's account an order is paid to (the order's page shows it); null while none is set. */
  async account() {
    return bankAccountOf(await bankTransferSettings(this.db));
  }

  /**
   * The customer's transaction reference for their own order (anyone else's: 404), with at most
   * one screenshot of the transfer: the payment becomes submitted and the store is mailed to
   * check it. A screenshot replaces the one sent before; a reference sent again without one keeps
   * it. An order paid on delivery, cancelled, or already verified: 409. A refused reference or
   * screenshot changes nothing, each said on its field. The form (`readForm`) is read only once
   * the order is known to be the caller's and open: no byte of anyone's screenshot is read,
   * checked or decoded for another's order (docs/decisions/2026-11-29-uploads-authorised-first.md);
   * the change checks the order again under its lock.
   */
  async submitReference(userId: string, orderId: string, readForm: ReadFormWithPhotos): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.deps.life.check(this.db, orderId, { ownerId: userId }, { kind: "reference-sent" }, this.now());
    const { fields, photos } = await readForm();
    const { reference, screenshot } = await this.readReference(fields, photos);
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId, { ownerId: userId });
      await this.deps.life.run(trx, order, { kind: "reference-sent" }, { now, reference });
      if (screenshot) await storePaymentScreenshot(trx, order.id, screenshot);
      await this.deps.messages.queue(trx, [messageOf(paymentSubmittedMail(this.deps.mail, order, reference))]);
    });
    return readOrder(this.db, orderId);
  }

  /**
   * The reference and the screenshot checked together, so that a form with both wrong says both;
   * the screenshot goes through the photos' pipeline (its limits, formats and messages), said on
   * SCREENSHOT_FIELD. Too large is a 413, as a photo is. The screenshot is decoded (in the photo
   * lane) only for a form with nothing else to refuse.
   */
  private async readReference(
    input: unknown,
    screenshots: PhotoUpload[],
  ): Promise<{ reference: string; screenshot: PreparedScreenshot | null }> {
    const errors: InvalidInputError[] = [];
    let reference = "";
    try {
      reference = validateInput(paymentReferenceSchema, input).reference;
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      errors.push(error);
    }
    if (screenshots.length > 1) {
      errors.push(new InvalidInputError([{ field: SCREENSHOT_FIELD, message: "Attach one screenshot at most" }]));
    } else if (screenshots[0]) {
      try {
        await inspectPhoto(screenshots[0]);
      } catch (error) {
        errors.push(onScreenshotField(error));
      }
    }
    if (errors.length > 0) {
      const all = errors.flatMap((error) => error.errors);
      throw errors.some((error) => error instanceof TooLargeError)
        ? new TooLargeError(all)
        : new InvalidInputError(all);
    }
    if (!screenshots[0]) return { reference, screenshot: null };
    try {
      return { reference, screenshot: await prepareScreenshot(screenshots[0], this.deps.photoLane) };
    } catch (error) {
      // A file that fails to decode, or a full lane (503), is said beside the screenshot too.
      if (error instanceof BusyError) {
        throw new BusyError(error.errors.map(({ message }) => ({ field: SCREENSHOT_FIELD, message })));
      }
      throw onScreenshotField(error);
    }
  }

  /** The screenshot sent with an order's reference, for its owner and admins only (else 404). */
  async screenshot(viewer: ScreenshotViewer, orderId: string, size: ScreenshotSize): Promise<Buffer> {
    if (!isUuid(orderId)) throw new NotFoundError("Screenshot not found");
    return readPaymentScreenshot(this.db, viewer, orderId, size);
  }

  /**
   * An admin verifies the transfer (the order may then ship) or rejects its reference with a
   * reason (the customer may send another); the customer is told either way.
   */
  async review(orderId: string, input: unknown): Promise<PublicOrder> {
    const verdict = validateInput(paymentVerdictSchema, input);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      if (verdict.status === "verified") {
        const amount = Number(order.totalPrice);
        await this.deps.life.run(
          trx,
          order,
          { kind: "payment-verified", by: "admin" },
          { now, verifiedAmount: amount },
        );
        await this.deps.messages.queue(trx, [
          messageOf(paymentVerifiedMail(this.deps.mail, order, amount), order.phone),
        ]);
        await this.text(trx, order, "payment-verified");
      } else {
        const reason = verdict.reason!;
        await this.deps.life.run(trx, order, { kind: "payment-rejected" }, { now, rejectedReason: reason });
        await this.deps.messages.queue(trx, [
          messageOf(paymentRejectedMail(this.deps.mail, order, reason), order.phone),
        ]);
        await this.text(trx, order, "payment-rejected");
      }
    });
    return readOrder(this.db, orderId);
  }

  /**
   * The crontab's sweep: bank-transfer orders still unpaid (awaiting, or their reference rejected)
   * the settings' hours after they were placed are cancelled with the reason "Not paid", their
   * stock and discount code's use given back, and the customer mailed. A reference sent meanwhile
   * keeps the order for the admin to judge. Each order under its own lock: a payment that arrives
   * while the sweep runs wins.
   */
  async cancelUnpaid(): Promise<{ cancelled: number }> {
    const { unpaidTransferHours } = await bankTransferSettings(this.db);
    if (unpaidTransferHours === null) return { cancelled: 0 };
    const now = this.now();
    const before = new Date(now.getTime() - unpaidTransferHours * 3600_000);
    let cancelled = 0;
    for (const orderId of await unpaidTransferIds(this.db, before, UNPAID_BATCH)) {
      const done = await this.db.transaction(async (trx) => {
        const order = await this.deps.life.lock(trx, orderId);
        // Under the lock the table has the last word: a payment that arrived meanwhile wins.
        const event = { kind: "cancelled", by: "unpaid" } as const;
        if (!this.deps.life.allows(order, event, now)) return false;
        if (new Date(order.createdAt).getTime() > before.getTime()) return false;
        await this.deps.life.run(trx, order, event, { now, cancelReason: NOT_PAID_REASON });
        await this.deps.messages.queue(trx, [
          messageOf(
            orderStatusMail(this.deps.mail, { ...order, courier: null, trackingNumber: null }, "Cancelled", {
              notPaid: true,
            }),
            order.phone,
          ),
        ]);
        await this.text(trx, order, "not-paid");
        return true;
      });
      if (done) cancelled += 1;
    }
    return { cancelled };
  }
}

/** A photo's refusal, said beside the screenshot's field (of the same kind: a 413 stays a 413). */
function onScreenshotField(error: unknown): InvalidInputError {
  if (!(error instanceof InvalidInputError)) throw error;
  const onField = error.errors.map(({ message }) => ({ field: SCREENSHOT_FIELD, message }));
  return error instanceof TooLargeError ? new TooLargeError(onField) : new InvalidInputError(onField);
}
