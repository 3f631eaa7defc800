import type {
  BookedParcel,
  CourierBooking,
  CourierCity,
  ParcelEvent,
  ParcelPayment,
  ParcelStage,
  ParcelToBook,
  ParcelTrack,
} from "./courier-provider.shared";
import {
  COURIER_TIMEOUT_MS,
  courierCall,
  CourierRefused,
  courierTime,
  CourierUnreachable,
  isTrue,
  jsonOf,
  pakistanDay,
  textOf,
  inTimeOrder,
  type CourierAnswer,
} from "./courier-http";

export type PostexConfig = {
  /** POSTEX_API_URL: the Order Integration API's base, without a trailing slash. */
  apiUrl: string;
  /** Sent in the `token` header of every call. */
  token: string;
  /** The merchant's pickup address (its code in PostEx's merchant portal). */
  pickupAddressCode: string;
};

const COURIER = "PostEx";

/**
 * PostEx's Order Integration API (docs/couriers.md, part A): the `token` header on every call,
 * JSON bodies, answers in `{statusCode, statusMessage, dist}` with statusCode a string or a number.
 */
export function postexBooking(config: PostexConfig, options: { timeoutMs?: number } = {}): CourierBooking {
  const timeoutMs = options.timeoutMs ?? COURIER_TIMEOUT_MS;
  const call = (method: string, path: string, body?: unknown) =>
    courierCall(
      COURIER,
      `${config.apiUrl}${path}`,
      {
        method,
        headers: { token: config.token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      timeoutMs,
    );

  return {
    async cities(): Promise<CourierCity[]> {
      const dist = distOf(await call("GET", "/v2/get-operational-city?operationalCityType=Delivery"));
      return listOf(dist)
        .filter((city) => city.isDeliveryCity === undefined || isTrue(city.isDeliveryCity))
        .map((city) => textOf(city.operationalCityName))
        .filter((name): name is string => name !== null)
        .map((name) => ({ id: null, name }));
    },

    async book(parcel: ParcelToBook): Promise<BookedParcel> {
      const dist = distOf(
        await call("POST", "/v3/create-order", {
          orderRefNumber: parcel.reference,
          invoicePayment: String(parcel.collectAmount),
          orderDetail: parcel.description,
          customerName: parcel.receiver.name,
          customerPhone: localPhone(parcel.receiver.phone),
          deliveryAddress: parcel.receiver.address,
          transactionNotes: `Order ${parcel.reference}`,
          cityName: parcel.receiver.city.name,
          invoiceDivision: 1,
          items: parcel.pieces,
          pickupAddressCode: config.pickupAddressCode,
          orderType: "Normal",
          // Not in PostEx's guide; integrations send it, in kilograms (docs/couriers.md).
          bookingWeight: parcel.weightGrams / 1000,
        }),
      );
      const trackingNumber = textOf(objectOf(dist).trackingNumber);
      if (!trackingNumber) throw new CourierUnreachable(COURIER, "PostEx answered without a tracking number");
      return { trackingNumber, airwayBillUrl: null };
    },

    async findBooked(reference: string, bookedOn: Date): Promise<BookedParcel | null> {
      // Live servers want orderStatusId/startDate/endDate, the guide orderStatusID/fromDate/toDate:
      // both are sent. Status 0 asks for every status (docs/couriers.md).
      const from = pakistanDay(new Date(bookedOn.getTime() - 24 * 60 * 60 * 1000));
      const to = pakistanDay(new Date(bookedOn.getTime() + 24 * 60 * 60 * 1000));
      const query = new URLSearchParams({
        orderStatusId: "0",
        orderStatusID: "0",
        startDate: from,
        endDate: to,
        fromDate: from,
        toDate: to,
      });
      const dist = distOf(await call("GET", `/v1/get-all-order?${query}`));
      for (const entry of listOf(dist)) {
        const order =
          entry.trackingResponse && typeof entry.trackingResponse === "object"
            ? objectOf(entry.trackingResponse)
            : entry;
        if (textOf(order.orderRefNumber) !== reference) continue;
        const trackingNumber = textOf(order.trackingNumber) ?? textOf(entry.trackingNumber);
        if (trackingNumber) return { trackingNumber, airwayBillUrl: null };
      }
      return null;
    },

    async cancel(trackingNumber: string): Promise<void> {
      distOf(await call("PUT", "/v1/cancel-order", { trackingNumber }));
    },

    async track(trackingNumbers: readonly string[]): Promise<ParcelTrack[]> {
      // One call a parcel: the bulk call's method and body differ between sources (docs/couriers.md).
      const tracks: ParcelTrack[] = [];
      for (const trackingNumber of trackingNumbers) {
        const answer = await call("GET", `/v1/track-order/${encodeURIComponent(trackingNumber)}`);
        if (answer.status === 404) continue;
        tracks.push({ trackingNumber, events: postexEvents(objectOf(distOf(answer))) });
      }
      return tracks;
    },

    async payments(trackingNumbers: readonly string[]): Promise<ParcelPayment[]> {
      const payments: ParcelPayment[] = [];
      for (const trackingNumber of trackingNumbers) {
        const answer = await call("GET", `/v1/payment-status/${encodeURIComponent(trackingNumber)}`);
        if (answer.status === 404) continue;
        const dist = objectOf(distOf(answer));
        // settle may be a boolean or "true"/"false"; the reserve's CPR is the last payment, the upfront's the first.
        payments.push({
          trackingNumber,
          paid: isTrue(dist.settle),
          paidOn: textOf(dist.settlementDate) ?? textOf(dist.reservePaymentDate) ?? textOf(dist.upfrontPaymentDate),
          receipt: textOf(dist.cprNumber_2) ?? textOf(dist.cprNumber_1),
        });
      }
      return payments;
    },

    async airwayBill(parcel) {
      const answer = await call("GET", `/v1/get-invoice?trackingNumbers=${encodeURIComponent(parcel.trackingNumber)}`);
      if (answer.status === 200 && isPdf(answer.body)) {
        return { kind: "pdf", body: answer.body };
      }
      distOf(answer);
      throw new CourierUnreachable(COURIER, "PostEx did not give the airway bill as a PDF");
    },

    async loadSheet(trackingNumbers) {
      const answer = await call("POST", "/v2/generate-load-sheet", {
        pickupAddress: config.pickupAddressCode,
        trackingNumbers,
      });
      if (answer.status === 200 && isPdf(answer.body)) return answer.body;
      distOf(answer);
      throw new CourierUnreachable(COURIER, "PostEx did not give the load sheet as a PDF");
    },
  };
}

/** The `dist` of a successful answer; PostEx's error, in its envelope or Spring's, as CourierRefused. */
function distOf(answer: CourierAnswer): unknown {
  const body = jsonOf(COURIER, answer);
  const code = textOf(body.statusCode) ?? textOf(body.status);
  if (answer.status === 200 && code === "200") return body.dist;
  const message = textOf(body.statusMessage) ?? textOf(body.message) ?? textOf(body.error) ?? `HTTP ${answer.status}`;
  throw new CourierRefused(COURIER, `PostEx: ${message}`);
}

function isPdf(body: Buffer): boolean {
  return body.subarray(0, 5).toString("latin1") === "%PDF-";
}

function objectOf(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(objectOf) : [];
}

/** +923001234567 → 03001234567, the form PostEx asks for. */
function localPhone(phone: string): string {
  return phone.replace(/^\+92/, "0");
}

/**
 * A tracking answer's history as events, oldest first: the timestamp is `modifiedDatetime` or
 * `updatedAt` (sources disagree); history seen newest-first is turned round. Without a history,
 * the current `transactionStatus` is the one event.
 */
export function postexEvents(dist: Record<string, unknown>): ParcelEvent[] {
  const history = listOf(dist.transactionStatusHistory);
  const events = history.map((entry): ParcelEvent => {
    const text = textOf(entry.transactionStatusMessage) ?? "";
    const code = textOf(entry.transactionStatusMessageCode);
    return {
      at: courierTime(textOf(entry.modifiedDatetime) ?? textOf(entry.updatedAt)),
      stage: postexStage(text, code),
      text,
      code,
      reason: attemptReason(text),
    };
  });
  if (events.length === 0) {
    const text = textOf(dist.transactionStatus);
    if (!text) return [];
    return [{ at: null, stage: postexStage(text, null), text, code: null, reason: null }];
  }
  return inTimeOrder(events);
}

const POSTEX_CODES: Record<string, ParcelStage> = {
  "0001": "booked",
  "0002": "returned",
  "0003": "picked-up",
  "0004": "out-for-delivery",
  "0005": "delivered",
  "0006": "returned",
  "0007": "returned",
  "0008": "attempted",
  "0013": "attempted",
  "0035": "in-transit",
};

/** PostEx's code, else its words, read as the parcel's stage (docs/couriers.md's mapping); null: unknown. */
export function postexStage(text: string, code: string | null): ParcelStage | null {
  if (code && POSTEX_CODES[code]) return POSTEX_CODES[code];
  const words = text.toLowerCase().replace(/\s+/g, " ").trim();
  if (
    /^(un-?booked|booked)$/.test(words) ||
    (words.startsWith("at ") && words.endsWith("warehouse") && !words.includes("postex"))
  ) {
    return "booked";
  }
  if (words.startsWith("picked by postex") || words === "postex warehouse" || words.startsWith("at postex warehouse")) {
    return "picked-up";
  }
  if (words.startsWith("out for return") || /^return(ed)?\b/.test(words)) return "returned";
  if (words.startsWith("en-route to postex") || words.startsWith("arrived at transit")) return "in-transit";
  if (words.startsWith("out for delivery") || words.startsWith("enroute for delivery") || words === "package on root") {
    return "out-for-delivery";
  }
  if (words.startsWith("delivered")) return "delivered";
  if (words.startsWith("attempt") || words.startsWith("delivery under review")) return "attempted";
  if (words.startsWith("cancel")) return "cancelled";
  return null;
}

/** "Attempt Made: Customer not available" → "Customer not available". */
function attemptReason(text: string): string | null {
  const match = /^attempt(?:ed| made)\s*:\s*(.+)$/i.exec(text.trim());
  return match ? match[1]!.trim() : null;
}
