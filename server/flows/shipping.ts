import * as yup from "yup";
import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import { linesWithWeights } from "../modules/catalog/weights";
import { orderLinesSold, recordParcel } from "../modules/orders/order-state";
import { refusalOf } from "../modules/order-life/order-life.shared";
import type { OrderLifeFlow } from "./order-life";
import { shortOrderId } from "../modules/orders/order-values.shared";
import { Order } from "../modules/orders/order.model";
import type { PublicOrder } from "../modules/orders/order.shape";
import {
  cancelledShipment,
  cityKey,
  insertAttempt,
  keepCities,
  keptCities,
  liveShipment,
  updateShipment,
  type ShipmentRow,
} from "../modules/fulfilment/shipments";
import { systemClock, type Clock } from "../modules/shared/clock";
import {
  CodedConflictError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  OutsideServiceError,
} from "../modules/shared/errors.shared";
import { validateInput } from "../modules/shared/validation";
import type { CourierCity } from "../providers/couriers/courier-provider.shared";
import { COURIER_TIMEOUT_MS, CourierRefused, CourierUnreachable } from "../providers/couriers/courier-http";
import { paymentMethodNamed } from "../providers/payment-methods/payment-methods.shared";
import { readOrder } from "../modules/order-life/orders-reading";
import type { ApiCourierClient } from "./courier-clients";

export type { ApiCourierClient } from "./courier-clients";

/** Grams a piece weighs when its product says nothing and COURIER_PIECE_GRAMS is unset (RULINGS: 500 g a piece). */
export const DEFAULT_PIECE_GRAMS = 500;

export const shipmentSchema = yup.object({
  courier: yup
    .string()
    .required("Choose a courier")
    .oneOf(["postex", "leopards"], 'Courier must be "postex" or "leopards"'),
  city: yup.string().trim().max(100, "City must be at most 100 characters").optional(),
});

/**
 * Booking a confirmed order's parcel with a courier's API exactly once, and cancelling it before
 * pickup (docs/decisions/2026-11-26-courier-booking.md). The attempt is committed before the
 * courier is called, under the order's row lock and the shipments' unique index, so a second
 * press or a second admin sees it instead of calling again; a call that got no answer leaves it
 * "in doubt", and the next try looks for the booking at the courier before booking.
 */
export class ShippingFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      couriers: readonly ApiCourierClient[];
      life: OrderLifeFlow;
      clock?: Clock;
      timeoutMs?: number;
      /** Grams a piece of a product without its own weight (COURIER_PIECE_GRAMS). */
      pieceGrams?: number;
    },
  ) {}

  /** The couriers on (their settings complete), for the pages' buttons. */
  get couriers(): { id: string; name: string }[] {
    return this.deps.couriers.map(({ id, name }) => ({ id, name }));
  }

  private now(): Date {
    return (this.deps.clock ?? systemClock)();
  }

  private courier(id: string): ApiCourierClient {
    const courier = this.deps.couriers.find((known) => known.id === id);
    if (!courier) {
      throw new InvalidInputError([{ field: "courier", message: `${id} is not a courier this store books with` }]);
    }
    return courier;
  }

  /** The courier's city list, from the database when fetched within a day, else from its API. */
  async cities(courierId: string): Promise<CourierCity[]> {
    const courier = this.courier(courierId);
    const now = this.now();
    const kept = await keptCities(this.db, courier.name, now);
    if (kept) return kept;
    const cities = await askCourier(() => courier.booking.cities());
    await this.db.transaction((trx) => keepCities(trx, courier.name, cities, now));
    return [...cities].sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Books the order with the courier. The order must be Pending and confirmed (by phone, an answer
   * or a verified payment: isConfirmed), and not booked
   * already; its city must match one of the courier's (else `city` names it from the list).
   */
  async book(orderId: string, input: unknown, admin: { name: string }): Promise<PublicOrder> {
    const { courier: courierId, city: chosenCity } = validateInput(shipmentSchema, input);
    const courier = this.courier(courierId);
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const order = await Order.query(this.db).findById(orderId);
    if (!order) throw new NotFoundError("Order not found");
    const city = await this.matchCity(courier, chosenCity ?? order.city, chosenCity !== undefined);
    const now = this.now();

    const attempt = await this.db.transaction(async (trx) => {
      const locked = await this.deps.life.lock(trx, orderId);
      const live = await liveShipment(trx, orderId);
      if (live) {
        // A retry of an attempt in doubt: the order must still be one the table lets book.
        const refusal = refusalOf({ ...locked.life, parcel: "none" }, { kind: "booking-requested" }, now);
        if (live.state !== "booked" && refusal) throw new CodedConflictError(refusal.message, refusal.code);
        return this.takeOver(trx, live, courier, now);
      }
      await this.deps.life.run(trx, locked, { kind: "booking-requested" }, { now });
      return {
        row: await insertAttempt(trx, {
          orderId,
          courier: courier.name,
          reference: shortOrderId(orderId),
          cityName: city.name,
          cityId: city.id,
          requestedBy: admin.name.slice(0, 100),
          attemptedAt: now,
        }),
        inDoubt: false,
      };
    });

    const { row } = attempt;
    const booked = await (async () => {
      try {
        if (attempt.inDoubt) {
          const found = await courier.booking.findBooked(row.reference, row.attemptedAt);
          if (found) return found;
        }
        return await courier.booking.book(await this.parcelOf(order, row, { id: row.cityId, name: row.cityName }));
      } catch (error) {
        await this.recordFailure(row, error);
        throw this.failure(courier, error, attempt.inDoubt);
      }
    })();
    await this.db.transaction(async (trx) => {
      const locked = await this.deps.life.lock(trx, orderId);
      const details = { now: this.now(), courier: courier.name, trackingNumber: booked.trackingNumber };
      await this.deps.life.run(trx, locked, { kind: "booked" }, details);
      await updateShipment(trx, row.id, {
        state: "booked",
        trackingNumber: booked.trackingNumber,
        airwayBillUrl: booked.airwayBillUrl,
        error: null,
        bookedAt: this.now(),
      });
      // A booking that comes back after its order was cancelled is cancelled at once: no parcel
      // may travel for an order that is no longer sold (docs/product.md, "An order's life").
      if (locked.status === "Cancelled") {
        await askCourier(() => courier.booking.cancel(booked.trackingNumber));
        await cancelledShipment(trx, row.id, this.now());
        await recordParcel(trx, orderId, { courier: null, trackingNumber: null });
      }
    });
    return readOrder(this.db, orderId);
  }

  /**
   * A live attempt found under the order's lock: booked already, or another call still running,
   * is a 409; one in doubt (or one whose call outlived any answer) is taken over by this retry.
   */
  private async takeOver(
    trx: Database,
    live: ShipmentRow,
    courier: ApiCourierClient,
    now: Date,
  ): Promise<{ row: ShipmentRow; inDoubt: boolean }> {
    if (live.state === "booked") {
      throw new ConflictError(
        `This order is booked with ${live.courier} already (tracking number ${live.trackingNumber})`,
      );
    }
    const stale =
      now.getTime() - new Date(live.attemptedAt).getTime() > 2 * (this.deps.timeoutMs ?? COURIER_TIMEOUT_MS);
    if (live.state === "booking" && !stale) {
      throw new ConflictError(`A booking with ${live.courier} is under way for this order: wait for its answer`);
    }
    if (live.courier !== courier.name) {
      throw new ConflictError(
        `A booking with ${live.courier} is in doubt for this order: try again with ${live.courier}, which is asked whether it booked the parcel`,
      );
    }
    await updateShipment(trx, live.id, { state: "booking" });
    return { row: live, inDoubt: true };
  }

  private async recordFailure(row: ShipmentRow, error: unknown): Promise<void> {
    const refused = error instanceof CourierRefused;
    // A lookup or booking that got no answer keeps the attempt in doubt; a refusal of a booking
    // (after the lookup, if any, found nothing) frees the order for another try.
    await this.db.transaction(async (trx) => {
      if (refused) {
        const order = await this.deps.life.lock(trx, row.orderId);
        await this.deps.life.run(trx, order, { kind: "booking-refused" }, { now: this.now() });
      }
      await updateShipment(trx, row.id, {
        state: refused ? "refused" : "in-doubt",
        error: error instanceof Error ? error.message.slice(0, 500) : "The courier failed",
      });
    });
  }

  private failure(courier: ApiCourierClient, error: unknown, wasInDoubt: boolean): Error {
    if (error instanceof CourierRefused) return new OutsideServiceError(`${courier.name} refused: ${error.message}`);
    if (error instanceof CourierUnreachable) {
      return new OutsideServiceError(
        wasInDoubt
          ? `${error.message}, so the store could not check whether the parcel was booked: nothing was booked again. Try again later.`
          : `${error.message}: the booking is in doubt. Try again: the store first asks ${courier.name} whether it booked the parcel.`,
      );
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  /** The one city of the courier's list this name matches (case and spacing aside), else a field error. */
  private async matchCity(courier: ApiCourierClient, name: string, chosen: boolean): Promise<CourierCity> {
    const cities = await this.cities(courier.id);
    const matches = cities.filter((city) => cityKey(city.name) === cityKey(name));
    if (matches.length === 1) return matches[0]!;
    throw new InvalidInputError([
      {
        field: "city",
        message: chosen
          ? `Choose the city from the ${courier.name} list`
          : `"${name}" is not one of the ${courier.name} cities: choose the city from the list`,
      },
    ]);
  }

  private async parcelOf(order: Order, row: ShipmentRow, city: CourierCity) {
    // Each line's weight is its product's today (an order keeps no copy of it), else the default:
    // a product deleted since weighs the default too.
    const items = await linesWithWeights(this.db, orderLinesSold(this.db, order.id));
    const pieces = items.reduce((sum, item) => sum + item.quantity, 0);
    const pieceGrams = this.deps.pieceGrams ?? DEFAULT_PIECE_GRAMS;
    const weightGrams = items.reduce((sum, item) => sum + item.quantity * (item.weightGrams ?? pieceGrams), 0);
    const method = paymentMethodNamed(order.paymentMethod);
    return {
      reference: row.reference,
      receiver: {
        name: order.customerName,
        phone: order.phone ?? "",
        email: order.customerEmail,
        address: [order.street, order.city, order.state].filter(Boolean).join(", "),
        city,
      },
      pieces,
      weightGrams,
      // Whole rupees, half up (RULINGS, fifth wave); nothing to collect when paid in advance.
      collectAmount: method.paidBeforeShipping ? 0 : Math.round(order.totalPrice),
      description: items
        .map((item) => `${item.quantity} x ${item.productName}`)
        .join(", ")
        .slice(0, 250),
    };
  }

  /**
   * Cancels the order's booking before pickup: the courier's cancel call first, under the order's
   * lock (server/flows/order-life.ts, `cancel-consignment`); a refusal changes nothing.
   */
  async cancel(orderId: string): Promise<PublicOrder> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    await this.db.transaction(async (trx) => {
      const order = await this.deps.life.lock(trx, orderId);
      await this.deps.life.run(trx, order, { kind: "booking-cancelled" }, { now: this.now() });
    });
    return readOrder(this.db, orderId);
  }
}

/** A courier's call whose refusal or silence the admin is told in the courier's words (a 502 in the API). */
export async function askCourier<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CourierRefused || error instanceof CourierUnreachable) {
      throw new OutsideServiceError(error.message);
    }
    throw error;
  }
}
