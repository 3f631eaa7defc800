import crypto from "node:crypto";
import express, { type Request, type Response, type Router } from "express";
import type { Config } from "../settings/config";
import type { Logger } from "../logging/logger";
import { InvalidInputError, isDatabaseUnavailable } from "../modules/shared/errors.shared";
import type { Services } from "../start-up/services";

/** Providers' notifications are small; anything larger is not one. */
const WEBHOOK_BODY_LIMIT = "512kb";

/**
 * The messaging providers' webhooks (docs/product.md, "Confirming an order"; SECURITY.md):
 * - `GET /webhooks/whatsapp`: Meta's verification (hub.mode=subscribe, hub.verify_token =
 *   WHATSAPP_VERIFY_TOKEN), answered with hub.challenge; 403 otherwise.
 * - `POST /webhooks/whatsapp`: checked with X-Hub-Signature-256, the HMAC-SHA256 of the raw body
 *   with WHATSAPP_APP_SECRET, compared in constant time.
 * - `POST /webhooks/sms`: checked with X-Twilio-Signature, the HMAC-SHA1 of the full URL and the
 *   sorted POST parameters with TWILIO_AUTH_TOKEN, base64. Behind TRUST_PROXY the URL is
 *   PUBLIC_URL's (the one Twilio was given), since the proxy's Host is not the store's.
 * A bad or missing signature answers 401 and changes nothing; a body that is not a notification
 * 400; a well-signed event the store ignores 200; never a 5xx but for the database being away
 * (503, so the provider delivers it again).
 */
export function webhooksRouter(deps: { config: Config; services: Services; logger: Logger }): Router {
  const { config, services, logger } = deps;
  const router = express.Router();
  const raw = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT });

  router.get("/whatsapp", (req, res) => {
    const verifyToken = config.confirmation.whatsapp?.verifyToken;
    const given = req.query["hub.verify_token"];
    const challenge = req.query["hub.challenge"];
    res.set("Cache-Control", "no-store");
    if (
      verifyToken &&
      req.query["hub.mode"] === "subscribe" &&
      typeof given === "string" &&
      sameSecret(given, verifyToken) &&
      typeof challenge === "string" &&
      /^[A-Za-z0-9_-]{1,200}$/.test(challenge)
    ) {
      res.type("text/plain").send(challenge);
      return;
    }
    res.status(403).type("text/plain").send("Forbidden");
  });

  router.post("/whatsapp", raw, async (req, res) => {
    const body = rawBody(req);
    const secret = config.confirmation.whatsapp?.appSecret;
    const signature = req.get("x-hub-signature-256") ?? "";
    const expected = secret ? `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}` : null;
    if (!expected || !sameSecret(signature, expected)) return refuse(res, 401, "Invalid signature");
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return refuse(res, 400, "Malformed body");
    }
    await handle(res, logger, () => services.confirmationReplies.whatsappNotification(parsed));
  });

  router.post("/sms", raw, async (req, res) => {
    const body = rawBody(req).toString("utf8");
    const sms = config.confirmation.sms;
    const params = new URLSearchParams(body);
    const fields: Record<string, string> = {};
    for (const [name, value] of params) fields[name] = value;
    const url = (config.trustProxy ? config.publicUrl : `${req.protocol}://${req.get("host") ?? ""}`) + req.originalUrl;
    const data = Object.keys(fields)
      .sort()
      .reduce((text, name) => text + name + fields[name], url);
    const expected = sms ? crypto.createHmac("sha1", sms.authToken).update(data).digest("base64") : null;
    if (!expected || !sameSecret(req.get("x-twilio-signature") ?? "", expected)) {
      return refuse(res, 401, "Invalid signature");
    }
    await handle(
      res,
      logger,
      () => services.confirmationReplies.smsNotification(fields),
      () => {
        // Twilio reads TwiML: an empty response sends no reply SMS.
        res.type("text/xml").send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
      },
    );
  });
  return router;
}

function rawBody(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/** Equal secrets, compared in constant time (their hashes have one length whatever was sent). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => crypto.createHash("sha256").update(text).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected)) && given.length === expected.length;
}

function refuse(res: Response, status: number, message: string): void {
  res.status(status).set("Cache-Control", "no-store").type("text/plain").send(message);
}

async function handle(res: Response, logger: Logger, work: () => Promise<void>, answer?: () => void): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof InvalidInputError) return refuse(res, 400, "Malformed body");
    if (isDatabaseUnavailable(error)) return refuse(res, 503, "Service temporarily unavailable");
    // Anything else is the store's fault, not the provider's: logged, and the event is not asked again.
    logger.error({ err: error }, "webhook event failed");
    return refuse(res, 200, "OK");
  }
  if (answer) answer();
  else res.status(200).set("Cache-Control", "no-store").type("text/plain").send("OK");
}
