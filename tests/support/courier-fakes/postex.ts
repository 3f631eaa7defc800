import { FAKE_PDF, CourierFake, pakistanClock, type FakeConsignment, type FakeRequest } from "./courier-fake";

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
