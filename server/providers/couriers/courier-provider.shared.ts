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
 * What a courier booked through its merchant API does for an order (the couriers' issue; its
 * formats: docs/couriers.md): list the cities it delivers to, book a parcel and answer its
 * tracking number and airway bill, find a booking made by a call whose answer was lost, cancel
 * it before pickup, and report what happened to parcels since. Each client speaks its API
 * (server/providers/couriers/postex.ts, leopards.ts); the flows call these. A refusal throws
 * CourierRefused with the courier's words, no answer CourierUnreachable (server/providers/couriers/courier-http.ts).
 */
export type CourierBooking = {
  cities(): Promise<CourierCity[]>;
  book(parcel: ParcelToBook): Promise<BookedParcel>;
  /**
   * The consignment booked with this reference on that day, or null when the courier certainly
   * has none; throws when the courier cannot be asked.
   */
  findBooked(reference: string, bookedOn: Date): Promise<BookedParcel | null>;
  cancel(trackingNumber: string): Promise<void>;
  /** Each parcel's events as its courier lists them now, oldest first; parcels it does not know are left out. */
  track(trackingNumbers: readonly string[]): Promise<ParcelTrack[]>;
  /** What the courier says of its payment of each delivered parcel's cash; parcels it does not know are left out. */
  payments(trackingNumbers: readonly string[]): Promise<ParcelPayment[]>;
  /** The airway bill to print: a PDF the store fetches for the admin, or the courier's own link. */
  airwayBill(parcel: { trackingNumber: string; airwayBillUrl: string | null }): Promise<AirwayBill>;
  /** The load sheet (a PDF) handed over with these parcels at pickup; only couriers whose API makes one (PostEx). */
  loadSheet?(trackingNumbers: readonly string[]): Promise<Buffer>;
};

/** A city of the courier's list: its id where the API books by id (Leopards), and its name. */
export type CourierCity = { id: string | null; name: string };

/** A parcel to book: the order's number as the reference, the receiver, and what to collect. */
export type ParcelToBook = {
  reference: string;
  receiver: { name: string; phone: string; email: string; address: string; city: CourierCity };
  pieces: number;
  weightGrams: number;
  /** Whole rupees the courier collects at the door; 0 when paid in advance. */
  collectAmount: number;
  /** What is in the parcel, for the courier's notes. */
  description: string;
};

export type BookedParcel = { trackingNumber: string; airwayBillUrl: string | null };

export type AirwayBill = { kind: "pdf"; body: Buffer } | { kind: "link"; url: string };

/** Where a parcel is in its life, as the store reads a courier's status (docs/couriers.md). */
export const PARCEL_STAGES = [
  "booked",
  "picked-up",
  "in-transit",
  "out-for-delivery",
  "attempted",
  "delivered",
  "returned",
  "cancelled",
] as const;
export type ParcelStage = (typeof PARCEL_STAGES)[number];

/** Each stage as the order pages name it in the parcel's timeline. */
export const PARCEL_STAGE_LABELS: Record<ParcelStage, string> = {
  booked: "Booked",
  "picked-up": "Picked up",
  "in-transit": "In transit",
  "out-for-delivery": "Out for delivery",
  attempted: "Delivery attempted",
  delivered: "Delivered",
  returned: "Returning to the store",
  cancelled: "Cancelled by the courier",
};

/** One step of a parcel as its courier reports it. */
export type ParcelEvent = {
  /** When the courier says it happened; null when its answer gives no time. */
  at: string | null;
  /** Null: a status the store does not know, kept as the courier said it and not acted on. */
  stage: ParcelStage | null;
  /** The courier's own words and code. */
  text: string;
  code: string | null;
  /** Why an attempt failed (or the parcel comes back), when the courier says. */
  reason: string | null;
};

export type ParcelTrack = { trackingNumber: string; events: ParcelEvent[] };

/** Whether the courier paid a parcel's cash over, the date it gives, and its receipt or cheque number. */
export type ParcelPayment = { trackingNumber: string; paid: boolean; paidOn: string | null; receipt: string | null };
