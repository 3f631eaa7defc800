import { parseCookies } from "./cookies";
import { LITE_COOKIE } from "./lite-mode.shared";

export { LITE_COOKIE };

/**
 * Whether a request gets the pages without scripts: every journey already works without
 * JavaScript, so nothing is lost but the niceties. The shopper's choice in the cookie wins; a
 * browser saying `Save-Data: on` gets lite mode unless the shopper chose the full site.
 */
export function isLiteMode(cookieHeader: string | undefined, saveData: string | undefined): boolean {
  const choice = parseCookies(cookieHeader)[LITE_COOKIE];
  if (choice === "1" || choice === "0") return choice === "1";
  return (saveData ?? "").trim().toLowerCase() === "on";
}
