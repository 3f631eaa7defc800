import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertProducts } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// A streamed page's flushes are gathered before they reach the compressor
// (server/http/response-compression.ts): whatever the encoding, a browser must get the same page.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await insertProducts(
    server,
    Array.from({ length: 12 }, (_, index) => ({ name: `Compressed Watch ${index}`, stock: 3 })),
  );
});
afterAll(async () => {
  await server?.close();
});

type Answer = { encoding: string | undefined; body: string; length: string | undefined; chunked: boolean };

/** A GET with this Accept-Encoding (none for null), its body decoded. */
function get(path: string, encoding: string | null): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = encoding === null ? {} : { "accept-encoding": encoding };
    http
      .get(server.baseUrl + path, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const raw = Buffer.concat(chunks);
          const contentEncoding = response.headers["content-encoding"];
          const body =
            contentEncoding === "br"
              ? zlib.brotliDecompressSync(raw)
              : contentEncoding === "gzip"
                ? zlib.gunzipSync(raw)
                : contentEncoding === "deflate"
                  ? zlib.inflateSync(raw)
                  : raw;
          resolve({
            encoding: contentEncoding,
            body: body.toString("utf8"),
            length: response.headers["content-length"],
            chunked: response.headers["transfer-encoding"] === "chunked",
          });
        });
      })
      .on("error", reject);
  });
}

// Each answer has its own CSP nonce; everything else is the same page.
const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

describe("compressed pages", () => {
  it("sends the same whole page with brotli, with gzip and uncompressed", async () => {
    const plain = await get("/products", "identity");
    const brotli = await get("/products", "br");
    const gzip = await get("/products", "gzip");
    expect(plain.encoding).toBeUndefined();
    expect(brotli.encoding).toBe("br");
    expect(gzip.encoding).toBe("gzip");
    expect(plain.body).toContain("Compressed Watch 11");
    expect(plain.body.trimEnd()).toMatch(/<\/html>$/);
    expect(withoutNonces(brotli.body)).toBe(withoutNonces(plain.body));
    expect(withoutNonces(gzip.body)).toBe(withoutNonces(plain.body));
  });
});

describe("answers compressed whole", () => {
  const API_PATH = "/api/v1/products?limit=12";

  it("sends the API's JSON compressed in one piece with its length, the same JSON as uncompressed", async () => {
    const plain = await get(API_PATH, "identity");
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const encoding of ["br", "gzip"]) {
      const compressed = await get(API_PATH, encoding);
      expect(compressed.encoding).toBe(encoding);
      expect(compressed.chunked).toBe(false);
      expect(Number(compressed.length)).toBeGreaterThan(0);
      expect(Number(compressed.length)).toBeLessThan(plain.body.length);
      expect(JSON.parse(compressed.body)).toEqual(JSON.parse(plain.body));
    }
  });

  // The whole-body path chooses its encoding itself (server/http/response-compression.ts); a
  // streamed page is compression()'s choice. A client must get the same encoding from either.
  it.each([
    ["gzip, deflate, br"],
    ["deflate, gzip"],
    ["deflate"],
    ["gzip;q=0.5, br;q=0.4"],
    ["br;q=0, gzip"],
    ["*"],
    ["identity"],
    ["x-unknown"],
    ["gzip;q=0, deflate;q=0"],
    [null],
  ])("chooses the encoding a streamed page gets for Accept-Encoding %s", async (acceptEncoding) => {
    const whole = await get(API_PATH, acceptEncoding);
    // A page the cache has never seen (its own query) is rendered and streamed.
    const streamed = await get(`/products?agreement=${encodeURIComponent(String(acceptEncoding))}`, acceptEncoding);
    expect(streamed.chunked).toBe(true);
    expect(whole.encoding).toBe(streamed.encoding);
    expect(JSON.parse(whole.body).data).toHaveLength(12);
  });
});
