import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Local fakes of the two couriers' merchant APIs, answering in the formats of docs/couriers.md,
 * with each variant where sources disagree selectable (`variant`). Each keeps the consignments
 * booked on it, records every request, and can be told to refuse (an error in the API's own
 * envelope), to be slow (do the work, then answer after `ms`: a client that gave up meanwhile
 * never hears that its parcel was booked, as with a real server) or to be down (503).
 */

export type FakeRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  query: URLSearchParams;
  body: Record<string, unknown>;
};

export type CourierFakeMode =
  { kind: "ok" } | { kind: "refuse"; message: string } | { kind: "slow"; ms: number } | { kind: "down" };

/** A status the test makes the courier report for a parcel. */
export type FakeStatus = { text: string; code?: string; reason?: string; at: Date };

export type FakeConsignment = {
  trackingNumber: string;
  reference: string;
  booking: Record<string, unknown>;
  bookedAt: Date;
  cancelled: boolean;
  statuses: FakeStatus[];
};

abstract class CourierFake {
  readonly requests: FakeRequest[] = [];
  readonly consignments: FakeConsignment[] = [];
  mode: CourierFakeMode = { kind: "ok" };
  private server: http.Server | null = null;
  port = 0;

  protected abstract answer(request: FakeRequest): { status: number; body: unknown; contentType?: string };

  /** Listens on `port` (0: any free one, as the integration tests want). */
  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://fake");
        const raw = Buffer.concat(chunks).toString("utf8");
        const request: FakeRequest = {
          method: req.method ?? "",
          path: url.pathname,
          headers: req.headers,
          query: url.searchParams,
          body: {},
        };
        // JSON or form fields: one Leopards integration posts forms (docs/couriers.md).
        if (raw) {
          request.body = (req.headers["content-type"] ?? "").includes("json")
            ? (JSON.parse(raw) as Record<string, unknown>)
            : Object.fromEntries(new URLSearchParams(raw));
        }
        if (request.path.startsWith(CONTROL_PATH)) {
          const { status, body } = this.control(request);
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
          return;
        }
        this.requests.push(request);
        if (this.mode.kind === "down") {
          res.writeHead(503, { "content-type": "text/html" });
          res.end("<html><body>503 Service Temporarily Unavailable</body></html>");
          return;
        }
        const { status, body, contentType } = this.answer(request);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(status, { "content-type": contentType ?? "application/json" });
          res.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
        };
        if (this.mode.kind === "slow") setTimeout(send, this.mode.ms);
        else send();
      });
    });
    this.server.listen(port, "127.0.0.1");
    await new Promise<void>((resolve) => this.server!.once("listening", () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The calls made to one of the API's methods (a path ending). */
  callsTo(pathEnd: string): FakeRequest[] {
    return this.requests.filter((request) => request.path.includes(pathEnd));
  }

  /** Parcels whose cash the courier paid over: the date and receipt (or cheque) number it gives. */
  readonly payments = new Map<string, { date: string; receipt: string }>();

  pay(trackingNumber: string, payment: { date: string; receipt: string }): void {
    this.payments.set(trackingNumber, payment);
  }

  report(trackingNumber: string, status: FakeStatus): void {
    const consignment = this.consignments.find((known) => known.trackingNumber === trackingNumber);
    if (!consignment) throw new Error(`no consignment ${trackingNumber}`);
    consignment.statuses.push(status);
  }

  /**
   * The fake's own test-only paths under CONTROL_PATH, for a journey in a browser that cannot
   * reach the fake's object (it runs in its own process, tests/support/courier-fakes-server.ts).
   * Neither courier documents a way to move a parcel, so these are the fake's, never the store's:
   * - GET ready: answers once listening (the launcher's readiness URL);
   * - GET consignments: the parcels booked, with their statuses;
   * - POST parcels/{trackingNumber}/statuses `{text, code?, reason?}`: the courier reports a status now;
   * - POST parcels/{trackingNumber}/payment `{date, receipt}`: the courier pays the parcel's cash over;
   * - PUT mode `{kind: "ok" | "refuse" | "slow" | "down", message?, ms?}`.
   * Control calls are not recorded in `requests`.
   */
  private control(request: FakeRequest): { status: number; body: unknown } {
    const path = request.path.slice(CONTROL_PATH.length);
    if (path === "ready" && request.method === "GET") return { status: 200, body: { ready: true } };
    if (path === "consignments" && request.method === "GET") return { status: 200, body: this.consignments };
    if (path === "mode" && request.method === "PUT") {
      const mode = modeOf(request.body);
      if (!mode) return { status: 400, body: { error: "mode: kind ok, refuse with a message, slow with ms, or down" } };
      this.mode = mode;
      return { status: 200, body: this.mode };
    }
    const parcel = /^parcels\/([^/]+)\/(statuses|payment)$/.exec(path);
    if (parcel && request.method === "POST") {
      const trackingNumber = decodeURIComponent(parcel[1]!);
      if (!this.consignments.some((known) => known.trackingNumber === trackingNumber)) {
        return { status: 404, body: { error: `no consignment ${trackingNumber}` } };
      }
      const { text, code, reason, date, receipt } = request.body;
      if (parcel[2] === "statuses") {
        if (typeof text !== "string" || !text) return { status: 400, body: { error: "text is required" } };
        this.report(trackingNumber, {
          text,
          at: new Date(),
          ...(typeof code === "string" ? { code } : {}),
          ...(typeof reason === "string" ? { reason } : {}),
        });
      } else {
        if (typeof date !== "string" || typeof receipt !== "string") {
          return { status: 400, body: { error: "date and receipt are required" } };
        }
        this.pay(trackingNumber, { date, receipt });
      }
      return { status: 200, body: this.consignments.find((known) => known.trackingNumber === trackingNumber) };
    }
    return { status: 404, body: { error: `no control path ${request.method} ${path}` } };
  }
}

/** Where a fake's test-only control paths start (CourierFake.control). */
export const CONTROL_PATH = "/__fake/";

function modeOf(body: Record<string, unknown>): CourierFakeMode | null {
  if (body.kind === "ok" || body.kind === "down") return { kind: body.kind };
  if (body.kind === "refuse" && typeof body.message === "string") return { kind: "refuse", message: body.message };
  if (body.kind === "slow" && typeof body.ms === "number") return { kind: "slow", ms: body.ms };
  return null;
}

/** Pakistan's wall-clock time (UTC+5) of an instant, as yyyy-mm-dd hh:mm:ss. */
function pakistanClock(at: Date): string {
  return new Date(at.getTime() + 5 * 3600_000).toISOString().replace("T", " ").slice(0, 19);
}

export type PostexVariant = {
  /** The guide's examples give statusCode as a string, its tables as a number. */
  statusCode: "string" | "number";
  /** The history's timestamp name, or none (the guide's own history has none). */
  timestamp: "modifiedDatetime" | "updatedAt" | "none";
  historyOrder: "oldest-first" | "newest-first";
  booleans: "string" | "boolean";
};

export const POSTEX_TOKEN = "test-postex-token";
export const POSTEX_CITIES = ["Lahore", "Karachi", "Islamabad", "Rawalpindi", "Faisalabad"];
/** The airway bill's PDF, as small as a PDF gets. */
export const FAKE_PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", "latin1");

/** The load sheet's PDF, told apart from the airway bill's. */
export const FAKE_LOAD_SHEET = Buffer.from("%PDF-1.4\n% load sheet\ntrailer<<>>\n%%EOF\n", "latin1");

/** PostEx's Order Integration API under `/services/integration/api/order` (docs/couriers.md, part A). */
export class FakePostex extends CourierFake {
  variant: PostexVariant = {
    statusCode: "string",
    timestamp: "modifiedDatetime",
    historyOrder: "oldest-first",
    booleans: "string",
  };

  get apiUrl(): string {
    return `${this.url}/services/integration/api/order`;
  }

  settings(): Record<string, string> {
    return { POSTEX_API_URL: this.apiUrl, POSTEX_TOKEN: POSTEX_TOKEN, POSTEX_PICKUP_ADDRESS_CODE: "001" };
  }

  private envelope(status: number, statusMessage: string, dist?: unknown) {
    const code = this.variant.statusCode === "string" ? String(status) : status;
    return { status, body: { statusCode: code, statusMessage, ...(dist === undefined ? {} : { dist }) } };
  }

  private flag(value: boolean) {
    return this.variant.booleans === "string" ? String(value) : value;
  }

  protected answer(request: FakeRequest) {
    const path = request.path.replace(/^\/services\/integration\/api\/order/, "");
    if (request.headers.token !== POSTEX_TOKEN) {
      return {
        status: 400,
        body: {
          timestamp: "2026-07-21T07:35:03.040+0500",
          status: 400,
          error: "Bad Request",
          message: "Missing request header 'token' for method parameter of type String",
          path: `/api/order${path}`,
        },
      };
    }
    if (this.mode.kind === "refuse") return this.envelope(400, this.mode.message);
    if (path === "/v2/get-operational-city") {
      return this.envelope(
        200,
        "SUCCESSFULLY OPERATED",
        POSTEX_CITIES.map((name) => ({
          operationalCityName: name,
          countryName: "Pakistan",
          isPickupCity: this.flag(true),
          isDeliveryCity: this.flag(true),
        })),
      );
    }
    if (path === "/v3/create-order" && request.method === "POST") {
      const missing = [
        "orderRefNumber",
        "customerName",
        "customerPhone",
        "deliveryAddress",
        "cityName",
        "orderType",
      ].filter((name) => !request.body[name]);
      if (missing.length > 0) return this.envelope(400, `${missing[0]} is required`);
      if (!POSTEX_CITIES.includes(String(request.body.cityName))) return this.envelope(400, "INVALID CITY NAME");
      const trackingNumber = `2012005${String(10_000_000 + this.consignments.length).slice(1)}`;
      const bookedAt = new Date();
      this.consignments.push({
        trackingNumber,
        reference: String(request.body.orderRefNumber),
        booking: request.body,
        bookedAt,
        cancelled: false,
        statuses: [],
      });
      return this.envelope(200, "ORDER HAS BEEN CREATED", {
        trackingNumber,
        orderStatus: "UnBooked",
        orderDate: pakistanClock(bookedAt),
      });
    }
    if (path === "/v1/get-all-order") {
      const from = request.query.get("startDate") ?? request.query.get("fromDate");
      const to = request.query.get("endDate") ?? request.query.get("toDate");
      if (!from || !to) return this.envelope(400, "startDate and endDate are required");
      const inRange = this.consignments.filter((c) => {
        const day = pakistanClock(c.bookedAt).slice(0, 10);
        return day >= from && day <= to;
      });
      return this.envelope(
        200,
        "SUCCESSFULLY OPERATED",
        inRange.map((c) => ({
          trackingResponse: this.trackingFields(c),
          trackingNumber: c.trackingNumber,
          message: "SUCCESSFULLY RETRIEVE ORDER",
        })),
      );
    }
    const track = /^\/v1\/track-order\/(.+)$/.exec(path);
    if (track) {
      const consignment = this.find(decodeURIComponent(track[1]!));
      if (!consignment) return this.envelope(404, "ORDER NOT FOUND");
      return this.envelope(200, "SUCCESSFULLY OPERATED", this.trackingFields(consignment));
    }
    const payment = /^\/v1\/payment-status\/(.+)$/.exec(path);
    if (payment) {
      const consignment = this.find(decodeURIComponent(payment[1]!));
      if (!consignment) return this.envelope(404, "ORDER NOT FOUND");
      const paid = this.payments.get(consignment.trackingNumber);
      return this.envelope(200, "SUCCESSFULLY OPERATED", {
        orderRefNumber: consignment.reference,
        trackingNumber: consignment.trackingNumber,
        settle: this.flag(paid !== undefined),
        settlementDate: paid?.date ?? null,
        upfrontPaymentDate: paid?.date ?? null,
        cprNumber_1: paid?.receipt ?? null,
        reservePaymentDate: null,
        cprNumber_2: null,
      });
    }
    if (path === "/v1/cancel-order" && request.method === "PUT") {
      const consignment = this.find(String(request.body.trackingNumber));
      if (!consignment) return this.envelope(404, "Order Not Found");
      if (consignment.statuses.length > 0) return this.envelope(400, "Order cannot be cancelled after pickup");
      consignment.cancelled = true;
      return this.envelope(200, "Successfully Cancelled");
    }
    if (path === "/v2/generate-load-sheet" && request.method === "POST") {
      const numbers = Array.isArray(request.body.trackingNumbers) ? request.body.trackingNumbers.map(String) : [];
      if (!request.body.pickupAddress) return this.envelope(400, "pickupAddress is required");
      if (numbers.length === 0 || !numbers.every((number) => this.find(number))) {
        return this.envelope(400, "INVALID TRACKING NUMBER");
      }
      return { status: 200, body: FAKE_LOAD_SHEET, contentType: "application/pdf" };
    }
    if (path === "/v1/get-invoice") {
      const numbers = (request.query.get("trackingNumbers") ?? "").split(",");
      if (!numbers.every((number) => this.find(number))) return this.envelope(404, "ORDER NOT FOUND");
      return { status: 200, body: FAKE_PDF, contentType: "application/pdf" };
    }
    return this.envelope(404, "NOT FOUND");
  }

  find(trackingNumber: string): FakeConsignment | undefined {
    return this.consignments.find((c) => c.trackingNumber === trackingNumber);
  }

  private trackingFields(consignment: FakeConsignment) {
    const history = consignment.statuses.map((status) => ({
      transactionStatusMessage: status.text,
      transactionStatusMessageCode: status.code ?? "",
      ...(this.variant.timestamp === "none"
        ? {}
        : { [this.variant.timestamp]: `${pakistanClock(status.at).replace(" ", "T")}.000+0500` }),
    }));
    const last = consignment.statuses.at(-1);
    return {
      orderRefNumber: consignment.reference,
      trackingNumber: consignment.trackingNumber,
      customerName: consignment.booking.customerName,
      cityName: consignment.booking.cityName,
      invoicePayment: Number(consignment.booking.invoicePayment),
      transactionStatus: consignment.cancelled ? "Cancelled" : last ? last.text : "Booked",
      transactionStatusHistory: this.variant.historyOrder === "newest-first" ? history.reverse() : history,
    };
  }
}

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
