import type { Database } from "../db/database";
import { isUuid } from "../db/ids";
import {
  bookedTrackingNumbers,
  lastShipment,
  type ApiCourier,
  type ShipmentState,
} from "../modules/fulfilment/shipments";
import { systemClock, type Clock } from "../modules/shared/clock";
import { ConflictError, NotFoundError } from "../modules/shared/errors.shared";
import type { AirwayBill } from "../providers/couriers/courier-provider.shared";
import { pakistanDay } from "../providers/couriers/courier-http";
import { askCourier, type ApiCourierClient } from "./shipping";

/** An order's booking with a courier's API as the admin's pages show it (its last attempt). */
export type BookingView = {
  courier: ApiCourier;
  state: ShipmentState;
  trackingNumber: string | null;
  /** The courier's words when it refused, or why the booking is in doubt. */
  error: string | null;
};

/**
 * What the admin prints for parcels booked through a courier's API (docs/product.md, "Couriers
 * through their APIs"): an order's airway bill and PostEx's load sheet of the day, both fetched
 * by the store with its own credentials (never sent to the browser), and the booking's state for
 * the order's page. The booking itself is ShippingFlow's (server/flows/shipping.ts).
 */
export class CourierPapersFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: { couriers: readonly ApiCourierClient[]; clock?: Clock },
  ) {}

  /** The order's last booking attempt, or null when it never had one. */
  async bookingOf(orderId: string): Promise<BookingView | null> {
    if (!isUuid(orderId)) return null;
    const row = await lastShipment(this.db, orderId);
    if (!row) return null;
    return { courier: row.courier, state: row.state, trackingNumber: row.trackingNumber, error: row.error };
  }

  /** The booked parcel's airway bill: PostEx's PDF through the store, Leopards' slip link. */
  async airwayBill(orderId: string): Promise<AirwayBill> {
    if (!isUuid(orderId)) throw new NotFoundError("Order not found");
    const row = await lastShipment(this.db, orderId);
    if (!row || row.state !== "booked" || !row.trackingNumber) {
      throw new ConflictError("This order is not booked with a courier: there is no airway bill to print");
    }
    const courier = this.courierNamed(row.courier);
    return askCourier(() =>
      courier.booking.airwayBill({ trackingNumber: row.trackingNumber!, airwayBillUrl: row.airwayBillUrl }),
    );
  }

  /** Whether the store can print PostEx's load sheet (PostEx on). */
  get hasLoadSheet(): boolean {
    return this.deps.couriers.some((courier) => courier.booking.loadSheet !== undefined);
  }

  /**
   * PostEx's load sheet (a PDF) for the parcels booked with it today, Pakistan's day, that are
   * still booked (not cancelled).
   */
  async loadSheet(): Promise<{ pdf: Buffer; day: string; parcels: number }> {
    const courier = this.deps.couriers.find((known) => known.booking.loadSheet !== undefined);
    if (!courier) throw new ConflictError("No courier of this store makes load sheets");
    const day = pakistanDay((this.deps.clock ?? systemClock)());
    const trackingNumbers = await bookedTrackingNumbers(this.db, courier.name, new Date(`${day}T00:00:00+05:00`));
    if (trackingNumbers.length === 0) throw new ConflictError(`No parcel is booked with ${courier.name} today`);
    const pdf = await askCourier(() => courier.booking.loadSheet!(trackingNumbers));
    return { pdf, day, parcels: trackingNumbers.length };
  }

  private courierNamed(name: ApiCourier): ApiCourierClient {
    const courier = this.deps.couriers.find((known) => known.name === name);
    if (!courier) throw new ConflictError(`${name} is not on in this store's settings`);
    return courier;
  }
}
