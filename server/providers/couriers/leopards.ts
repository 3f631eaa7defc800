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
  inTimeOrder,
  isTrue,
  jsonOf,
  pakistanDay,
  textOf,
} from "./courier-http";

export type LeopardsConfig = {
  /** LEOPARDS_API_URL: the COD merchant API's base, with its trailing slash (calls are `<base><method>/format/json/`). */
  apiUrl: string;
  apiKey: string;
  apiPassword: string;
  /** Where parcels leave from: a Leopards city id, or `self` (the merchant's own city). */
  originCity: string;
};

const COURIER = "Leopards";
/** Parcels asked after in one trackBookedPacket or getPaymentDetails call (the latter's documented limit). */
export const LEOPARDS_TRACK_BATCH = 50;

/**
 * Leopards' COD merchant API (docs/couriers.md, part B): `<base><method>/format/json/`, POSTed
 * as JSON with api_key and api_password; answers `{status, error, <payload>}` with HTTP 200 even
 * on errors, status and error as numbers or strings.
 */
export function leopardsBooking(config: LeopardsConfig, options: { timeoutMs?: number } = {}): CourierBooking {
  const timeoutMs = options.timeoutMs ?? COURIER_TIMEOUT_MS;
  const call = async (method: string, fields: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const answer = await courierCall(
      COURIER,
      `${config.apiUrl}${method}/format/json/`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: config.apiKey, api_password: config.apiPassword, ...fields }),
      },
      timeoutMs,
    );
    const body = jsonOf(COURIER, answer);
    if (answer.status === 200 && Number(textOf(body.status)) === 1) return body;
    throw new CourierRefused(COURIER, `Leopards: ${errorText(body.error) ?? `HTTP ${answer.status}`}`);
  };

  return {
    async cities(): Promise<CourierCity[]> {
      const body = await call("getAllCities", {});
      return listOf(body.city_list)
        .filter((city) => city.allow_as_destination === undefined || isTrue(city.allow_as_destination))
        .map((city) => ({ id: textOf(city.id), name: textOf(city.name) }))
        .filter((city): city is CourierCity & { name: string } => city.id !== null && city.name !== null);
    },

    async book(parcel: ParcelToBook): Promise<BookedParcel> {
      const body = await call("bookPacket", {
        booked_packet_weight: parcel.weightGrams,
        booked_packet_no_piece: parcel.pieces,
        booked_packet_collect_amount: parcel.collectAmount,
        booked_packet_order_id: parcel.reference,
        origin_city: config.originCity,
        destination_city: parcel.receiver.city.id ?? parcel.receiver.city.name,
        // The merchant's own name, phone and address as Leopards holds them.
        shipment_name_eng: "self",
        shipment_email: "self",
        shipment_phone: "self",
        shipment_address: "self",
        consignment_name_eng: parcel.receiver.name,
        consignment_email: parcel.receiver.email,
        consignment_phone: localPhone(parcel.receiver.phone),
        consignment_address: parcel.receiver.address,
        special_instructions: parcel.description,
        shipment_type: "overnight",
      });
      const trackingNumber = textOf(body.track_number);
      if (!trackingNumber) throw new CourierUnreachable(COURIER, "Leopards answered without a tracking number");
      return { trackingNumber, airwayBillUrl: textOf(body.slip_link) };
    },

    async findBooked(reference: string, bookedOn: Date): Promise<BookedParcel | null> {
      const body = await call("getBookedPacketLastStatus", {
        from_date: pakistanDay(new Date(bookedOn.getTime() - 24 * 60 * 60 * 1000)),
        to_date: pakistanDay(new Date(bookedOn.getTime() + 24 * 60 * 60 * 1000)),
      });
      const found = listOf(body.packet_list).find((packet) => textOf(packet.booked_packet_order_id) === reference);
      const trackingNumber = found ? textOf(found.track_number) : null;
      return trackingNumber ? { trackingNumber, airwayBillUrl: textOf(found!.slip_link) } : null;
    },

    async cancel(trackingNumber: string): Promise<void> {
      await call("cancelBookedPackets", { cn_numbers: trackingNumber });
    },

    async track(trackingNumbers: readonly string[]): Promise<ParcelTrack[]> {
      const tracks: ParcelTrack[] = [];
      for (let start = 0; start < trackingNumbers.length; start += LEOPARDS_TRACK_BATCH) {
        const batch = trackingNumbers.slice(start, start + LEOPARDS_TRACK_BATCH);
        const body = await call("trackBookedPacket", { track_numbers: batch.join(",") });
        for (const packet of listOf(body.packet_list)) {
          const trackingNumber = textOf(packet.track_number);
          if (trackingNumber && batch.includes(trackingNumber)) {
            tracks.push({ trackingNumber, events: leopardsEvents(packet) });
          }
        }
      }
      return tracks;
    },

    async payments(trackingNumbers: readonly string[]): Promise<ParcelPayment[]> {
      const payments: ParcelPayment[] = [];
      for (let start = 0; start < trackingNumbers.length; start += LEOPARDS_TRACK_BATCH) {
        const batch = trackingNumbers.slice(start, start + LEOPARDS_TRACK_BATCH);
        const body = await call("getPaymentDetails", { cn_numbers: batch.join(",") });
        for (const entry of listOf(body.payment_list)) {
          const trackingNumber = textOf(entry.booked_packet_cn);
          if (!trackingNumber || !batch.includes(trackingNumber)) continue;
          // "Paid" is the only status seen; anything else is read as not paid yet (docs/couriers.md).
          payments.push({
            trackingNumber,
            paid: (textOf(entry.status) ?? "").toLowerCase() === "paid",
            paidOn: textOf(entry.invoice_cheque_date),
            receipt: textOf(entry.invoice_cheque_no),
          });
        }
      }
      return payments;
    },

    async airwayBill(parcel) {
      if (!parcel.airwayBillUrl) throw new CourierUnreachable(COURIER, "Leopards gave no slip link for this parcel");
      return { kind: "link", url: parcel.airwayBillUrl };
    },
  };
}

/** Leopards' error: a string ("0" and "null" mean none), or an object of messages by field or number. */
function errorText(error: unknown): string | null {
  if (error && typeof error === "object") {
    const texts = Object.values(error as Record<string, unknown>).flatMap((value) =>
      value && typeof value === "object" ? Object.values(value as Record<string, unknown>) : [value],
    );
    const joined = texts.map(textOf).filter(Boolean).join("; ");
    return joined || null;
  }
  const text = textOf(error);
  return text && text !== "0" && text !== "null" ? text : null;
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((item) => item && typeof item === "object").map((item) => item as Record<string, unknown>)
    : [];
}

function localPhone(phone: string): string {
  return phone.replace(/^\+92/, "0");
}

/**
 * A packet's "Tracking Detail" as events, oldest first. Its keys differ between the guide's JSON
 * ("Staus", "Activity Date", "Reciever Name") and its XML and integrations (Status,
 * Activity_datetime or Activity_Date with Activity_Time, Reciever_Name): all are read. Without
 * details, the packet's own status is the one event.
 */
export function leopardsEvents(packet: Record<string, unknown>): ParcelEvent[] {
  const details = listOf(packet["Tracking Detail"] ?? packet.Tracking_Detail ?? packet.tracking_detail);
  const events = details.map((detail): ParcelEvent => {
    const text = textOf(detail.Status) ?? textOf(detail.Staus) ?? textOf(detail.status) ?? "";
    const at =
      courierTime(textOf(detail.Activity_datetime)) ??
      courierTime(textOf(detail.Activity_Date) ?? textOf(detail["Activity Date"]), textOf(detail.Activity_Time));
    return { at, stage: leopardsStage(text), text, code: null, reason: textOf(detail.Reason) };
  });
  if (events.length === 0) {
    const text = textOf(packet.booked_packet_status);
    if (!text) return [];
    const stage = leopardsStage(text);
    return [
      {
        at: courierTime(textOf(packet.activity_date)),
        stage,
        text,
        code: null,
        reason: stage === "attempted" || stage === "returned" ? textOf(packet.status_remarks) : null,
      },
    ];
  }
  return inTimeOrder(events);
}

/** Leopards' status words (or push code) as the parcel's stage (docs/couriers.md's mapping); null: unknown. */
export function leopardsStage(text: string): ParcelStage | null {
  const words = text.toLowerCase().replace(/\s+/g, " ").trim();
  const codes: Record<string, ParcelStage> = {
    rc: "booked",
    sp: "picked-up",
    ar: "in-transit",
    dp: "in-transit",
    ac: "out-for-delivery",
    dv: "delivered",
    pn1: "attempted",
    pn2: "attempted",
    nr: "returned",
    ro: "returned",
    rs: "returned",
  };
  if (codes[words]) return codes[words];
  if (words.startsWith("pickup request") || words === "consignment booked") return "booked";
  if (words === "shipment picked" || words.startsWith("drop off at express")) return "picked-up";
  if (words.startsWith("arrived at station") || words === "dispatched" || words === "missroute") return "in-transit";
  if (words.startsWith("assign") && words.includes("courier")) return "out-for-delivery";
  if (words === "delivered") return "delivered";
  if (words === "pending") return "attempted";
  if (
    words.startsWith("ready for return") ||
    words.startsWith("being return") ||
    words.startsWith("returned to shipper")
  ) {
    return "returned";
  }
  if (words === "cancelled" || words.includes("auto canceled") || words.includes("auto cancelled")) return "cancelled";
  return null;
}
