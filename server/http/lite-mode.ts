import { parseCookies } from "./cookies";

/**
 * Lite mode: pages without any executable script, for slow phones and costly data. Every journey
 * already works without JavaScript, so nothing is lost but the niceties. A shopper turns it on or
 * off with the footer link (kept in this cookie); a browser saying `Save-Data: on` gets it unless
 * the shopper chose the full site.
 */
export const LITE_COOKIE = "waqt.lite";

export function isLiteMode(cookieHeader: string | undefined, saveData: string | undefined): boolean {
  const choice = parseCookies(cookieHeader)[LITE_COOKIE];
  if (choice === "1" || choice === "0") return choice === "1";
  return (saveData ?? "").trim().toLowerCase() === "on";
}
