import crypto from "node:crypto";
import { serialize } from "cookie";
import type { Request, Response } from "express";
import { parseCookies } from "./cookies";
import type { Flash } from "./request-context";

/**
 * A message for the next page (after a redirect), carried in a short-lived signed cookie of its
 * own rather than in the session: showing a message never writes the session row, so it can never
 * bring back a session that a password change or a log-out ended, and guests can get one too.
 */
export const FLASH_COOKIE = "waqt.flash";
const FLASH_MAX_AGE_SECONDS = 60;
const MAX_MESSAGE_LENGTH = 500;

export type FlashCookies = {
  write(req: Request, res: Response, flash: Omit<Flash, "id">): void;
  /** The waiting message, if its signature holds; the cookie is cleared as it is read. */
  take(req: Request, res: Response): Flash | null;
};

export function flashCookies(secret: string): FlashCookies {
  const key = crypto.createHash("sha256").update(`flash-cookie:${secret}`).digest();
  const sign = (payload: string) => crypto.createHmac("sha256", key).update(payload).digest("base64url");
  const options = (req: Request, maxAge: number) =>
    ({ httpOnly: true, sameSite: "lax", path: "/", secure: req.secure, maxAge }) as const;

  return {
    write(req, res, flash) {
      const payload = Buffer.from(
        JSON.stringify({ tone: flash.tone, message: flash.message.slice(0, MAX_MESSAGE_LENGTH), id: Date.now() }),
      ).toString("base64url");
      res.append(
        "Set-Cookie",
        serialize(FLASH_COOKIE, `${payload}.${sign(payload)}`, options(req, FLASH_MAX_AGE_SECONDS)),
      );
    },
    take(req, res) {
      const raw = parseCookies(req.headers.cookie)[FLASH_COOKIE];
      if (raw === undefined) return null;
      res.append("Set-Cookie", serialize(FLASH_COOKIE, "", options(req, 0)));
      const [payload, signature] = raw.split(".");
      if (!payload || !signature) return null;
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
      try {
        const flash = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Flash;
        if ((flash.tone !== "success" && flash.tone !== "error") || typeof flash.message !== "string") return null;
        return { tone: flash.tone, message: flash.message, id: Number(flash.id) || 0 };
      } catch {
        return null;
      }
    },
  };
}
