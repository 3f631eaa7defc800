import { redirect } from "react-router";
import { LITE_COOKIE, LITE_COOKIE_MAX_AGE_SECONDS } from "../../server/http/lite-mode.shared";
import { safeRedirectPath } from "../lib/guards";
import type { Route } from "./+types/lite-mode";

/**
 * The footer's "Lite mode" / "Full mode" link: keeps the choice in a cookie for a year and goes
 * back to the page the shopper was on (only a path on this site).
 */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lite = url.searchParams.get("mode") === "on";
  const secure = url.protocol === "https:" ? "; Secure" : "";
  return redirect(safeRedirectPath(url.searchParams.get("returnTo")), {
    status: 303,
    headers: {
      "Set-Cookie": `${LITE_COOKIE}=${lite ? "1" : "0"}; Path=/; Max-Age=${LITE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax; HttpOnly${secure}`,
      "Cache-Control": "no-store",
    },
  });
}
