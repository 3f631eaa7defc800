import type { Knex } from "knex";
import type { Database } from "../db/database";
import type { MailContext } from "../modules/mail/mail-layout";
import type { LiveOrder } from "../modules/order-life/order-life";
import { collectOnDelivery } from "../modules/order-life/order-life-view.shared";
import { fromPaisa, toPaisa } from "../modules/shared/money.shared";
import { deliveryAttemptMail } from "../modules/orders/order-mails";
import { queueOrderTexts } from "../modules/confirmation/order-confirmation";
import type { TextChannel } from "../modules/confirmation/order-confirmation.shared";
import type { ReturnToSenderReason } from "../modules/orders/order-values.shared";
import {
  backoffOf,
  clearCourierFailures,
  parcelsAwaitingPayment,
  parcelsToFollow,
  recordCourierFailure,
  recordPayment,
  recordStage,
  storeEvents,
  type StoredEvent,
} from "../modules/fulfilment/shipment-events";
import type { ApiCourier, ShipmentRow } from "../modules/fulfilment/shipments";
import { systemClock, type Clock } from "../modules/shared/clock";
import { ConflictError } from "../modules/shared/errors.shared";
import type { ParcelTrack } from "../providers/couriers/courier-provider.shared";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import type { FulfilmentFlow } from "./fulfilment";
import type { OrderLifeFlow } from "./order-life";
import type { ApiCourierClient } from "./shipping";

/** What one sync did, courier by courier (the API's answer to POST /shipments/sync). */
export type CourierSyncReport = {
  couriers: {
    courier: ApiCourier;
    /** Parcels asked after. */
    parcels: number;
    /** Events new to the store. */
    events: number;
    /** Set when the courier was not asked: it failed before, and is left alone until then. */
    skippedUntil: string | null;
    /** Why asking it failed this time (it is then left alone for a while). */
    error: string | null;
  }[];
  shipped: number;
  delivered: number;
  returned: number;
  attempts: number;
  /** Delivered cash-on-delivery parcels whose cash the courier paid over since the last sync. */
  paid: number;
};

/** Where the sync says what it skipped or could not do (the store's logger; flows sit below server/logging/logger.ts). */
export type SyncLog = { warn(details: Record<string, unknown>, message: string): void };

/** The longest a failing courier is left alone. */
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

/**
 * Following booked parcels (docs/product.md, "Couriers through their APIs"): asks each courier
 * for its parcels not yet delivered or cancelled, stores the events it reports once, and applies
 * the new ones in their order to the order through the fulfilment flow: Shipped on the first
 * pickup or transit event, Delivered on delivery, returned to sender when the parcel comes back.
 * A parcel first seen delivered or returned passes through Shipped on the way. An attempt with a
 * reason is mailed to the customer, and texted to the order's phone in its language (sent as the
 * confirmation's texts are: order-texts.ts). A courier that fails is left alone for growing intervals,
 * recorded in the database so every app server agrees; the other couriers are still asked.
 */
export class CourierSyncFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      couriers: readonly ApiCourierClient[];
      fulfilment: FulfilmentFlow;
      life: OrderLifeFlow;
      mail: MailContext;
      messages: MessageChannels;
      /** The channel an attempt's text tries first (WhatsApp, else SMS); null: neither is configured, no text. */
      textChannel: TextChannel | null;
      /** COURIER_SYNC_MINUTES: the first wait after a failure, doubled at each failure after it. */
      syncMinutes: number;
      logger?: SyncLog;
      clock?: Clock;
    },
  ) {}

  /** Whether there is anything to follow: a courier's settings are on. */
  get on(): boolean {
    return this.deps.couriers.length > 0;
  }

  /** How long the sync waits between runs. */
  get intervalMs(): number {
    return Math.round(this.deps.syncMinutes * 60_000);
  }

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  /** How long a courier that failed `failures` times in a row is left alone: two intervals, then four… */
  private backoffMs(failures: number): number {
    return Math.min(this.intervalMs * 2 ** failures, MAX_BACKOFF_MS);
  }

  async syncAll(): Promise<CourierSyncReport> {
    const report: CourierSyncReport = {
      couriers: [],
      shipped: 0,
      delivered: 0,
      returned: 0,
      attempts: 0,
      paid: 0,
    };
    for (const courier of this.deps.couriers) {
      const entry = {
        courier: courier.name,
        parcels: 0,
        events: 0,
        skippedUntil: null,
        error: null,
      } as CourierSyncReport["couriers"][number];
      report.couriers.push(entry);
      const backoff = await backoffOf(this.db, courier.name);
      if (backoff.retryAt && backoff.retryAt > this.now()) {
        entry.skippedUntil = new Date(backoff.retryAt).toISOString();
        continue;
      }
      const parcels = await parcelsToFollow(this.db, courier.name);
      entry.parcels = parcels.length;
      let tracks: ParcelTrack[];
      try {
        tracks = parcels.length > 0 ? await courier.booking.track(parcels.map((parcel) => parcel.trackingNumber!)) : [];
      } catch (error) {
        entry.error = error instanceof Error ? error.message : String(error);
        const failed = await recordCourierFailure(
          this.db,
          courier.name,
          entry.error,
          (n) => this.backoffMs(n),
          this.now(),
        );
        this.deps.logger?.warn(
          { courier: courier.name, failures: failed.failures, retryAt: failed.retryAt },
          `courier sync: ${entry.error}`,
        );
        continue;
      }
      if (backoff.failures > 0) await clearCourierFailures(this.db, courier.name, this.now());
      for (const track of tracks) {
        const parcel = parcels.find((known) => known.trackingNumber === track.trackingNumber);
        if (!parcel) continue;
        entry.events += await this.db.transaction((trx) => this.applyTrack(trx, parcel, track, report));
      }
      try {
        report.paid += await this.syncPayments(courier);
      } catch (error) {
        entry.error = error instanceof Error ? error.message : String(error);
        await recordCourierFailure(this.db, courier.name, entry.error, (n) => this.backoffMs(n), this.now());
      }
    }
    return report;
  }

  /** Asks the courier about the cash of its delivered COD parcels not yet paid; answers how many it paid. */
  private async syncPayments(courier: ApiCourierClient): Promise<number> {
    const awaiting = await parcelsAwaitingPayment(this.db, courier.name);
    if (awaiting.length === 0) return 0;
    const payments = await courier.booking.payments(awaiting.map((parcel) => parcel.trackingNumber!));
    let paid = 0;
    for (const payment of payments) {
      const parcel = awaiting.find((known) => known.trackingNumber === payment.trackingNumber);
      if (!parcel) continue;
      await recordPayment(this.db, parcel.id, payment, this.now());
      if (payment.paid) paid += 1;
    }
    return paid;
  }

  /** Stores one parcel's new events and moves its order, in one transaction under the order's lock. */
  private async applyTrack(
    trx: Knex,
    parcel: ShipmentRow,
    track: ParcelTrack,
    report: CourierSyncReport,
  ): Promise<number> {
    const now = this.now();
    let order = await this.deps.life.lock(trx, parcel.orderId);
    const fresh = await storeEvents(trx, parcel, track.events, now);
    for (const event of fresh) {
      order = await this.apply(trx, order, parcel, event, report, now);
    }
    const known = [...track.events].reverse().find((event) => event.stage !== null);
    await recordStage(
      trx,
      parcel.id,
      known ? { stage: known.stage!, at: known.at ? new Date(known.at) : now } : null,
      now,
    );
    return fresh.length;
  }

  /** One new event's consequence for its order; answers the order as it is after it. */
  private async apply(
    trx: Knex,
    order: LiveOrder,
    parcel: ShipmentRow,
    event: StoredEvent,
    report: CourierSyncReport,
    now: Date,
  ): Promise<LiveOrder> {
    const stage = event.status;
    if (stage === null || stage === "booked" || stage === "cancelled") return order;
    // Any movement of the parcel means the courier has it: the order is Shipped first.
    if (order.status === "Pending") {
      order = await this.move(trx, order, (savepoint) =>
        this.deps.fulfilment.moveOrder(savepoint, order, { status: "Shipped" }, now, "courier"),
      );
      if (order.status === "Shipped") report.shipped += 1;
    }
    if (stage === "attempted" && event.reason && order.status === "Shipped") {
      await this.deps.messages.queue(trx, [
        messageOf(
          deliveryAttemptMail(
            this.deps.mail,
            { ...order, courier: parcel.courier, trackingNumber: parcel.trackingNumber! },
            event.reason,
            fromPaisa(collectOnDelivery(order.life, toPaisa(Number(order.totalPrice)))),
          ),
        ),
      ]);
      if (order.phone && this.deps.textChannel) {
        await queueOrderTexts(trx, [
          {
            orderId: order.id,
            channel: this.deps.textChannel,
            kind: "delivery-attempt",
            language: order.language,
            phone: order.phone,
            shipmentEventId: event.id,
          },
        ]);
      }
      report.attempts += 1;
    }
    if (stage === "delivered" && order.status === "Shipped") {
      order = await this.move(trx, order, (savepoint) =>
        this.deps.fulfilment.moveOrder(savepoint, order, { status: "Delivered" }, now, "courier"),
      );
      if (order.status === "Delivered") report.delivered += 1;
    }
    if (stage === "returned" && order.status === "Shipped") {
      const reason = returnReasonOf(event.reason);
      order = await this.move(trx, order, (savepoint) =>
        this.deps.fulfilment.returnToSender(savepoint, order, reason, now),
      );
      if (order.status === "Cancelled") report.returned += 1;
    }
    return order;
  }

  /**
   * A change the store's rules may refuse (an unverified transfer does not ship): the refusal is
   * logged and the order left as it is, in a savepoint, so the events are still kept.
   */
  private async move(trx: Knex, order: LiveOrder, change: (savepoint: Knex) => Promise<void>): Promise<LiveOrder> {
    try {
      await trx.transaction((savepoint) => change(savepoint));
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      this.deps.logger?.warn({ orderId: order.id }, `courier sync: the order was left as it is: ${error.message}`);
      return order;
    }
    return this.deps.life.lock(trx, order.id);
  }
}

/** The courier's words for a return, read as one of the reasons the store records (else Other). */
export function returnReasonOf(words: string | null): ReturnToSenderReason {
  const text = (words ?? "").toLowerCase();
  if (/refus|reject|not accept|denied/.test(text)) return "Refused at the door";
  if (/address|location|house (is )?closed|wrong/.test(text)) return "Wrong address";
  if (/reach|respond|not available|unavailable|no answer|not picking|phone (is )?off|contact/.test(text)) {
    return "Customer not reachable";
  }
  return "Other";
}
