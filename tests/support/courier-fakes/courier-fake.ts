import type http from "node:http";
import { FakeHttpServer, type ReceivedRequest } from "../fake-http-server";

/**
 * What the couriers' fakes share (postex.ts, leopards.ts beside this file): a local HTTP server
 * (tests/support/fake-http-server.ts) that keeps the consignments booked on it, records every
 * request, and can be told to refuse (an error in the API's own envelope), to be slow (do the
 * work, then answer after `ms`: a client that gave up meanwhile never hears that its parcel was
 * booked, as with a real server) or to be down (503), and the test-only control paths a journey
 * moves parcels through.
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

export abstract class CourierFake extends FakeHttpServer {
  readonly requests: FakeRequest[] = [];
  readonly consignments: FakeConsignment[] = [];
  mode: CourierFakeMode = { kind: "ok" };

  protected abstract answer(request: FakeRequest): { status: number; body: unknown; contentType?: string };

  protected receive(received: ReceivedRequest, res: http.ServerResponse): void {
    const url = new URL(received.url || "/", "http://fake");
    const request: FakeRequest = {
      method: received.method,
      path: url.pathname,
      headers: received.headers,
      query: url.searchParams,
      body: {},
    };
    // JSON or form fields: one Leopards integration posts forms (docs/couriers.md).
    if (received.body) {
      request.body = (received.headers["content-type"] ?? "").includes("json")
        ? (JSON.parse(received.body) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(received.body));
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
export function pakistanClock(at: Date): string {
  return new Date(at.getTime() + 5 * 3600_000).toISOString().replace("T", " ").slice(0, 19);
}

/** The airway bill's PDF, as small as a PDF gets (both couriers serve one). */
export const FAKE_PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", "latin1");
