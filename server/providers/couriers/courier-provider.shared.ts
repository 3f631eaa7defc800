/**
 * How parcels reach a courier (docs/decisions/2026-11-25-providers.md). The manual courier is
 * the first: the admin hands the parcel over and types the courier's name and tracking number.
 * A courier whose merchant API books parcels (PostEx, Leopards) is a provider of its own, with
 * the same names on orders and a `booking` that works through the API.
 */
export type CourierProvider = {
  /** The setting's word for it, in COURIER_PROVIDERS. */
  readonly id: string;
  readonly label: string;
  /** The courier names an order shipped through this provider may carry (stored, and `courier` in the API). */
  readonly courierNames: readonly string[];
  /** The tracking numbers of its parcels. */
  readonly trackingNumber: TrackingNumberRule;
  /**
   * How a parcel gets its tracking number: "typed" by the admin when the order is shipped, or
   * booked through the courier's API (a CourierBooking, which no provider has yet).
   */
  readonly booking: "typed" | CourierBooking;
};

export type TrackingNumberRule = {
  readonly pattern: RegExp;
  readonly maxLength: number;
  /** Said beside the field when a number breaks the rule. */
  readonly message: string;
};

/**
 * What a courier booked through its merchant API does for an order (the couriers' issue):
 * book a parcel and answer its tracking number and airway bill, cancel it before pickup, and
 * report what happened to parcels since. The flows call these; each provider speaks its API.
 */
export type CourierBooking = {
  book(parcel: ParcelToBook): Promise<BookedParcel>;
  cancel(trackingNumber: string): Promise<void>;
  track(trackingNumbers: readonly string[]): Promise<ParcelEvent[]>;
};

/** A parcel to book: the order's number as the reference, the receiver, and what to collect. */
export type ParcelToBook = {
  reference: string;
  receiver: { name: string; phone: string; address: string; city: string };
  pieces: number;
  weightGrams: number;
  /** Whole rupees the courier collects at the door; 0 when paid in advance. */
  collectAmount: number;
};

export type BookedParcel = { courierName: string; trackingNumber: string; airwayBillUrl: string | null };

/** One step of a parcel as its courier reports it. */
export type ParcelEvent = {
  trackingNumber: string;
  at: string;
  kind: "picked-up" | "in-transit" | "out-for-delivery" | "delivered" | "attempted" | "returned" | "cancelled";
  /** The courier's own words and code. */
  text: string;
  code: string | null;
};
