import http from "node:http";
import type { AddressInfo } from "node:net";

/** A request as a fake of an outside API received it, its body read whole. */
export type ReceivedRequest = {
  method: string;
  /** The path and query as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
};

/**
 * The local HTTP server under the fakes of outside APIs (courier-fakes/courier-fake.ts,
 * messaging-fakes.ts): it reads each request's body whole before the fake sees it, listens on
 * 127.0.0.1, and on stop drops open connections, so that an answer a fake holds back (a slow
 * courier) never keeps a test waiting.
 */
export abstract class FakeHttpServer {
  private server: http.Server | null = null;
  port = 0;

  protected abstract receive(request: ReceivedRequest, res: http.ServerResponse): void;

  /** Listens on `port` (0: any free one, as the integration tests want). */
  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.receive(
          {
            method: req.method ?? "",
            url: req.url ?? "",
            headers: req.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          },
          res,
        );
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
}
