import crypto from "node:crypto";
import {
  FAKE_PDF,
  CourierFake,
  pakistanClock,
  type FakeConsignment,
  type FakeRequest,
  type FakeStatus,
} from "./courier-fake";

export type LeopardsVariant = {
  /** `status` and `error` as numbers (bookPacket) or strings (cities, cancel). */
  numbers: "number" | "string";
  /** The guide's JSON keys, its XML's underscored ones, or the integrations' Activity_datetime. */
  detailKeys: "guide-json" | "underscored" | "datetime";
};

export const LEOPARDS_KEY = "test-leopards-key";
export const LEOPARDS_PASSWORD = "test-leopards-password";
export const LEOPARDS_CITIES = [
  { id: 789, name: "Lahore" },
  { id: 475, name: "Karachi" },
  { id: 473, name: "Islamabad" },
  { id: 474, name: "Rawalpindi" },
  { id: 217, name: "Faisalabad" },
];

/** Leopards' COD merchant API, `<base><method>/format/json/` (docs/couriers.md, part B). */
export class FakeLeopards extends CourierFake {
  variant: LeopardsVariant = { numbers: "number", detailKeys: "underscored" };

  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  settings(): Record<string, string> {
    return {
      LEOPARDS_API_URL: this.apiUrl,
      LEOPARDS_API_KEY: LEOPARDS_KEY,
      LEOPARDS_API_PASSWORD: LEOPARDS_PASSWORD,
      LEOPARDS_ORIGIN_CITY: "789",
    };
  }

  private num(value: number) {
    return this.variant.numbers === "string" ? String(value) : value;
  }

  private fail(error: unknown, payload: Record<string, null>) {
    return { status: 200, body: { status: this.num(0), error, ...payload } };
  }

  protected answer(request: FakeRequest) {
    // The slip link a booking answers is the airway bill itself, opened without the API's key.
    const slip = /^\/slips\/([A-Z0-9]+)-[0-9a-f]+\.pdf$/.exec(request.path);
    if (slip && request.method === "GET") {
      if (!this.consignments.some((c) => c.trackingNumber === slip[1])) {
        return { status: 404, body: Buffer.from("Not Found"), contentType: "text/plain" };
      }
      return { status: 200, body: FAKE_PDF, contentType: "application/pdf" };
    }
    const method = /^\/api\/([A-Za-z]+)\/format\/json\/?$/.exec(request.path)?.[1];
    const fields = { ...Object.fromEntries(request.query), ...request.body };
    if (fields.api_key !== LEOPARDS_KEY || fields.api_password !== LEOPARDS_PASSWORD) {
      return this.fail("Invalid API Key or Password", {});
    }
    if (this.mode.kind === "refuse") return this.fail(this.mode.message, { track_number: null, slip_link: null });
    const ok = (payload: Record<string, unknown>) => ({
      status: 200,
      body: { status: this.num(1), error: this.num(0), ...payload },
    });
    switch (method) {
      case "getAllCities":
        return ok({
          city_list: LEOPARDS_CITIES.map((city) => ({
            ...city,
            shipment_type: ["overnight", "detain"],
            allow_as_origin: true,
            allow_as_destination: true,
          })),
        });
      case "bookPacket": {
        const errors = Object.fromEntries(
          [
            "booked_packet_weight",
            "booked_packet_no_piece",
            "consignment_name_eng",
            "consignment_phone",
            "consignment_address",
            "special_instructions",
          ]
            .filter((name) => fields[name] === undefined || fields[name] === "")
            .map((name) => [name, `${name} is required`]),
        );
        if (Object.keys(errors).length > 0) return this.fail(errors, { track_number: null, slip_link: null });
        if (!LEOPARDS_CITIES.some((city) => String(city.id) === String(fields.destination_city))) {
          return this.fail("Invalid destination city", { track_number: null, slip_link: null });
        }
        const trackingNumber = `LE${String(70_000_000 + this.consignments.length)}`;
        this.consignments.push({
          trackingNumber,
          reference: String(fields.booked_packet_order_id ?? ""),
          booking: fields,
          bookedAt: new Date(),
          cancelled: false,
          statuses: [],
        });
        return ok({
          track_number: trackingNumber,
          slip_link: `${this.url}/slips/${trackingNumber}-${crypto.randomBytes(4).toString("hex")}.pdf`,
        });
      }
      case "getBookedPacketLastStatus": {
        const from = String(fields.from_date ?? "");
        const to = String(fields.to_date ?? "");
        if (!from || !to) return this.fail("from_date and to_date are required", { packet_list: null });
        return ok({
          packet_list: this.consignments
            .filter((c) => {
              const day = pakistanClock(c.bookedAt).slice(0, 10);
              return day >= from && day <= to;
            })
            .map((c) => this.packet(c)),
        });
      }
      case "trackBookedPacket": {
        const numbers = String(fields.track_numbers ?? fields.track_number ?? "").split(",");
        const found = numbers
          .map((number) => this.consignments.find((c) => c.trackingNumber === number))
          .filter(Boolean);
        if (found.length === 0) return this.fail("No record found", { packet_list: null });
        return ok({ packet_list: found.map((c) => this.packet(c!)) });
      }
      case "getPaymentDetails": {
        const numbers = String(fields.cn_numbers ?? "").split(",");
        const found = this.consignments.filter((c) => numbers.includes(c.trackingNumber));
        if (found.length === 0) return this.fail("No record found", { payment_list: null });
        return ok({
          payment_list: found.map((c) => {
            const paid = this.payments.get(c.trackingNumber);
            return {
              booked_packet_cn: c.trackingNumber,
              billing_method: "COD",
              status: paid ? "Paid" : "Pending",
              invoice_cheque_no: paid?.receipt ?? "",
              invoice_cheque_date: paid?.date ?? "",
              payment_method: paid ? "Cheque" : "",
              message: "",
              slip_link: "",
            };
          }),
        });
      }
      case "cancelBookedPackets": {
        const number = String(fields.cn_numbers ?? "");
        const consignment = this.consignments.find((c) => c.trackingNumber === number);
        if (!consignment) return this.fail({ [number]: "Invalid CN number" }, {});
        if (consignment.statuses.length > 0) return this.fail({ [number]: "Shipment already picked" }, {});
        consignment.cancelled = true;
        return { status: 200, body: { status: "1", error: "null" } };
      }
      default:
        return { status: 404, body: { status: this.num(0), error: "Unknown method" } };
    }
  }

  private packet(consignment: FakeConsignment) {
    const last = consignment.statuses.at(-1);
    const detail = (status: FakeStatus) => {
      const clock = pakistanClock(status.at);
      switch (this.variant.detailKeys) {
        case "guide-json":
          return { Staus: status.text, "Activity Date": clock, "Reciever Name": "", Reason: status.reason ?? "" };
        case "underscored":
          return {
            Status: status.text,
            Activity_Date: clock.slice(0, 10),
            Activity_Time: clock.slice(11, 16),
            Reciever_Name: "",
            Reason: status.reason ?? "",
          };
        case "datetime":
          return { Status: status.text, Activity_datetime: clock, Reciever_Name: "", Reason: status.reason ?? "" };
      }
    };
    return {
      track_number: consignment.trackingNumber,
      booked_packet_order_id: consignment.reference,
      booking_date: pakistanClock(consignment.bookedAt).slice(0, 10).split("-").reverse().join("/"),
      destination_city_name: LEOPARDS_CITIES.find((c) => String(c.id) === String(consignment.booking.destination_city))
        ?.name,
      booked_packet_collect_amount: consignment.booking.booked_packet_collect_amount,
      booked_packet_status: consignment.cancelled ? "Cancelled" : (last?.text ?? "Pickup Request not Send"),
      status_remarks: last?.reason ?? "",
      "Tracking Detail": consignment.statuses.map(detail),
    };
  }
}
