import zlib from "node:zlib";
import type { RequestHandler, Response } from "express";
import { listenForCatalogChanges } from "../db/catalog-change-listener";
import type { Logger } from "../logging/logger";
import { onProductShown } from "../modules/catalog/product-shown-listeners";
import { pageForEveryGuest } from "./cached-page-scripts";
import { noteProductShown, recordProductsShown } from "./products-on-page";
import type { ContentSecurityPolicy } from "./security-headers";
import { isPersonalised } from "./personalised-answer";

/**
 * Rendered pages for visitors without a session, kept in this process's memory.
 *
 * Correctness rules, each enforced here:
 * - only a GET of a catalogue or content page (and its `.data` twin for client navigation), the
 *   sitemap, or the API's product list or a product;
 * - a page is answered from the cache only for a request with no Cookie header, or with exactly
 *   the lite-mode choice and nothing else: no spelling of a session cookie can pass (a pattern over
 *   the header would have to imitate the session middleware's parser, and did not);
 * - an API read is answered only without an Authorization header (the API never reads cookies);
 * - only a 200 is kept that sets no cookie, is not marked `private` or `no-store`, and was not made
 *   for a signed-in user (personalised-answer.ts: flagged where the user is loaded);
 * - the lite and full versions of a page are kept apart;
 * - a product change reaches every app server (NOTIFY from triggers, delivered at commit; see
 *   catalog-change-listener.ts and migration 7): a stock change drops the pages that show that
 *   product (recorded while each page rendered: products-on-page.ts), any other change empties
 *   the cache. A page whose rendering overlapped a change to what it shows is not kept (the
 *   generation checks), and while the listener is not connected the cache is off, so a missed
 *   notification can never leave a stale page;
 * - entries also expire after maxAgeMs, and the least recently used go when maxBytes is reached.
 *
 * A cached page is sent with the headers it was rendered with, but never with the one nonce it
 * was rendered with: a nonce replayed to every guest protects nothing. At its first hit a kept
 * page is made fit for every guest (cached-page-scripts.ts): its `nonce` attributes go, and its
 * Content-Security-Policy names each inline script by its SHA-256 instead; an answer that is no
 * HTML page (page data, the sitemap, the API) gets the policy with no script but the site's own.
 * The first guest, whose answer was rendered, had it with its own nonce. A page asked for a
 * second time is also compressed once, off the event loop, and from then on sent pre-compressed
 * to clients that accept gzip: most search pages are asked for once, and compressing them (or
 * reading their scripts) for the cache would double the cost of rendering them.
 */
export type CachedPage = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** Made at the first hit that accepts gzip (`compressForHits`). */
  gzipped?: Buffer;
  storedAt: number;
  /** The products the page shows. */
  productIds: string[];
  /**
   * The nonce the page was rendered with, until the page is made fit for every guest at its first
   * hit (`shareWithGuests`); null from then on.
   */
  nonce: string | null;
};

export type PageCacheStats = { hits: number; misses: number; entries: number; bytes: number; available: boolean };

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  /** For each product, the kept pages that show it. */
  private readonly pagesShowing = new Map<string, Set<string>>();
  private bytes = 0;
  /** Counts every invalidation; a rendering remembers the count it started at. */
  private generation = 0;
  private lastFullInvalidation = 0;
  /** When each product last changed (since the last full invalidation). */
  private readonly productChangedAt = new Map<string, number>();
  private available = false;
  private readonly compressing = new WeakSet<CachedPage>();
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly options: { maxBytes: number; maxAgeMs: number } = {
      maxBytes: 64 * 1024 * 1024,
      maxAgeMs: 5 * 60_000,
    },
  ) {}

  /** The generation a rendering starts in; `set` keeps its page only if nothing changed meanwhile. */
  currentGeneration(): number {
    return this.generation;
  }

  isAvailable(): boolean {
    return this.available;
  }

  get(key: string): CachedPage | undefined {
    if (!this.available) return undefined;
    const page = this.entries.get(key);
    if (!page) {
      this.misses++;
      return undefined;
    }
    if (Date.now() - page.storedAt > this.options.maxAgeMs) {
      this.remove(key, page);
      this.misses++;
      return undefined;
    }
    // Least recently used order: a hit moves the page to the end.
    this.entries.delete(key);
    this.entries.set(key, page);
    this.hits++;
    return page;
  }

  set(key: string, page: CachedPage, renderedInGeneration: number): boolean {
    if (!this.available || this.lastFullInvalidation > renderedInGeneration) return false;
    if (page.productIds.some((id) => (this.productChangedAt.get(id) ?? 0) > renderedInGeneration)) return false;
    const size = sizeOf(page);
    if (size > this.options.maxBytes / 4) return false;
    // A kept page stays until it expires or is invalidated: a second rendering that missed while
    // the first was being compressed does not replace it (its nonce would change under clients).
    if (this.entries.has(key)) return false;
    this.entries.set(key, page);
    for (const id of page.productIds) {
      const keys = this.pagesShowing.get(id) ?? new Set<string>();
      keys.add(key);
      this.pagesShowing.set(id, keys);
    }
    this.bytes += size;
    this.evictOverLimit();
    return true;
  }

  /**
   * A kept page as every guest may be sent it (`share` makes it so, once, at its first hit: no
   * nonce, its scripts' hashes in its policy); undefined, and the page dropped, when it cannot be.
   */
  shareWithGuests(
    key: string,
    page: CachedPage,
    share: (page: CachedPage) => Pick<CachedPage, "body" | "headers"> | null,
  ): CachedPage | undefined {
    if (page.nonce === null) return page;
    const shared = share(page);
    const kept = this.entries.get(key) === page;
    if (!shared) {
      if (kept) this.remove(key, page);
      return undefined;
    }
    const before = sizeOf(page);
    page.body = shared.body;
    page.headers = shared.headers;
    page.gzipped = undefined;
    page.nonce = null;
    if (kept) {
      this.bytes += sizeOf(page) - before;
      this.evictOverLimit();
    }
    return page;
  }

  /** Compresses a kept page once, in the background, for the hits after this one. */
  compressForHits(key: string, page: CachedPage): void {
    if (page.gzipped || this.compressing.has(page)) return;
    this.compressing.add(page);
    zlib.gzip(page.body, (error, gzipped) => {
      this.compressing.delete(page);
      // Dropped or replaced meanwhile: nothing to attach it to.
      if (error || this.entries.get(key) !== page) return;
      page.gzipped = gzipped;
      this.bytes += gzipped.length;
      this.evictOverLimit();
    });
  }

  /** Something in the catalogue changed: every kept page may be stale. */
  invalidate(): void {
    this.generation++;
    this.lastFullInvalidation = this.generation;
    this.entries.clear();
    this.pagesShowing.clear();
    this.productChangedAt.clear();
    this.bytes = 0;
  }

  /** Only these products' stock changed: the pages showing them are stale, the rest are not. */
  invalidateProducts(productIds: string[]): void {
    this.generation++;
    for (const id of productIds) {
      this.productChangedAt.set(id, this.generation);
      for (const key of this.pagesShowing.get(id) ?? []) {
        const page = this.entries.get(key);
        if (page) this.remove(key, page);
      }
    }
  }

  /** The change listener is connected: pages may be kept (starting empty). */
  resume(): void {
    this.invalidate();
    this.available = true;
  }

  /** The change listener is lost: nothing is kept or served until it is back. */
  suspend(): void {
    this.available = false;
    this.invalidate();
  }

  stats(): PageCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.entries.size,
      bytes: this.bytes,
      available: this.available,
    };
  }

  /** The least recently used pages go until the kept bytes fit. */
  private evictOverLimit() {
    for (const [oldKey, oldPage] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(oldKey, oldPage);
    }
  }

  private remove(key: string, page: CachedPage) {
    this.entries.delete(key);
    this.bytes -= sizeOf(page);
    for (const id of page.productIds) {
      const keys = this.pagesShowing.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.pagesShowing.delete(id);
    }
  }
}

const sizeOf = (page: CachedPage) => page.body.length + (page.gzipped?.length ?? 0);

/** The pages worth keeping: the catalogue, the content pages and the sitemap, the same for every guest. */
const CACHEABLE_PAGE = /^\/(?:products(?:\/[^/]+)?|about|faq|contact|sitemap\.xml|sitemaps\/[^/]+)?$/;
/** And the API's catalogue reads, the same for every client without a token. */
const CACHEABLE_API = /^\/api\/v1\/products(?:\/[^/]+)?$/;
const MAX_CACHEABLE_URL_LENGTH = 512;

/** "/products.data" (client navigation) is the data of "/products"; "/_root.data" that of "/". */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

/** Response headers that belong to one response only, never replayed from the cache. */
const PER_RESPONSE_HEADERS = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "x-page-cache",
  "x-request-id",
  "x-query-count",
]);

export function pageCacheMiddleware(
  cache: PageCache,
  options: {
    liteCookie: string;
    isLite: (cookieHeader: string | undefined, saveData: string | undefined) => boolean;
    /** The site's policy (security-headers.ts), written for a page sent to every guest. */
    policy: ContentSecurityPolicy;
  },
): RequestHandler {
  // Every Cookie header a guest's page may be answered for, spelled exactly as the footer's
  // link sets it; any other header (a session, a flash, spaces, a second cookie) is rendered.
  const guestCookieHeaders = new Set([`${options.liteCookie}=0`, `${options.liteCookie}=1`]);
  return (req, res, next) => {
    if (req.method !== "GET" || !cache.isAvailable()) return next();
    if (req.originalUrl.length > MAX_CACHEABLE_URL_LENGTH) return next();
    const api = CACHEABLE_API.test(req.path);
    if (!api && !CACHEABLE_PAGE.test(pagePathOf(req.path))) return next();
    if (req.headers.authorization !== undefined) return next();
    if (!api && req.headers.cookie !== undefined && !guestCookieHeaders.has(req.headers.cookie)) return next();

    // A page differs in lite mode; an API answer by the caller's Origin (its CORS headers).
    const variant = api
      ? `api ${req.get("origin") ?? ""}`
      : options.isLite(req.headers.cookie, req.get("save-data"))
        ? "lite"
        : "full";
    const key = `${variant} ${req.originalUrl}`;
    const kept = cache.get(key);
    const cached = kept && cache.shareWithGuests(key, kept, (page) => sharedWithGuests(page, options.policy));
    if (cached) {
      const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
      if (gzip) cache.compressForHits(key, cached);
      sendCachedPage(res, cached, gzip);
      return;
    }
    const generation = cache.currentGeneration();
    const productsShown = new Set<string>();
    res.setHeader("X-Page-Cache", "miss");
    capturePage(res, (page) =>
      cache.set(key, { ...page, productIds: [...productsShown], nonce: res.locals.cspNonce ?? null }, generation),
    );
    recordProductsShown(productsShown, next);
  };
}

/** An answer the same for every guest: a 200 that sets no cookie, is not private and was made for no user. */
function isKeepable(res: Response): boolean {
  if (res.statusCode !== 200 || res.getHeader("set-cookie") !== undefined || isPersonalised(res)) return false;
  const cacheControl = String(res.getHeader("cache-control") ?? "").toLowerCase();
  return !cacheControl
    .split(",")
    .some((directive) => ["private", "no-store"].includes(directive.trim().split("=")[0]!));
}

/** A kept page; not yet compressed, the compression middleware compresses this one answer. */
function sendCachedPage(res: Response, page: CachedPage, gzip: boolean) {
  res.status(page.status);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("X-Page-Cache", "hit");
  res.setHeader("Vary", "Accept-Encoding");
  if (gzip && page.gzipped) {
    // Already compressed: the compression middleware leaves a response with an encoding alone.
    res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", String(page.gzipped.length));
    res.end(page.gzipped);
  } else {
    res.setHeader("Content-Length", String(page.body.length));
    res.end(page.body);
  }
}

/**
 * A kept answer as every guest may be sent it: an HTML page without its nonce and with its inline
 * scripts' hashes in its policy (cached-page-scripts.ts), anything else with the policy that
 * allows no inline script. Null when the page cannot be made so.
 */
function sharedWithGuests(
  page: CachedPage,
  policy: ContentSecurityPolicy,
): Pick<CachedPage, "body" | "headers"> | null {
  const header = (name: string) => page.headers.find(([headerName]) => headerName === name)?.[1];
  let body = page.body;
  let hashes: string[] = [];
  if (/^text\/html\b/i.test(header("content-type") ?? "")) {
    const shared = pageForEveryGuest(page.body.toString("utf8"), page.nonce ?? "");
    if (!shared) return null;
    body = Buffer.from(shared.html, "utf8");
    hashes = shared.scriptHashes;
  }
  const headers = page.headers.map(([name, value]): [string, string] =>
    name === "content-security-policy" ? [name, policy.withHashes(hashes)] : [name, value],
  );
  return { body, headers };
}

/** Records what the page handler writes (before compression) and offers it to the cache at the end. */
function capturePage(res: Response, keep: (page: Omit<CachedPage, "productIds" | "nonce">) => void) {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const record = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding)
          : Buffer.from(chunk as Uint8Array),
    );
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    record(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    record(chunk, rest[0]);
    const result = end(chunk, ...rest);
    if (isKeepable(res)) {
      const headers: [string, string][] = [];
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value === undefined || PER_RESPONSE_HEADERS.has(name)) continue;
        headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      keep({ status: 200, headers, body: Buffer.concat(chunks), storedAt: Date.now() });
    }
    return result;
  }) as Response["end"];
}

/** A page cache emptied by every product change on any app server; off until the listener is in place. */
export function startPageCache(connectionString: string, logger: Logger): { cache: PageCache; close(): Promise<void> } {
  const cache = new PageCache();
  const stopNoting = onProductShown(noteProductShown);
  const listener = listenForCatalogChanges({
    connectionString,
    logger,
    onChange: (productIds) => (productIds ? cache.invalidateProducts(productIds) : cache.invalidate()),
    onListening: () => cache.resume(),
    onLost: () => cache.suspend(),
  });
  return {
    cache,
    close: async () => {
      stopNoting();
      await listener.close();
    },
  };
}
