import { redirect } from "react-router";
import { DomainError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import type { Route } from "./+types/load-sheet";

/**
 * POST /admin/orders/load-sheet, admins only: PostEx's load sheet for the parcels booked with it
 * today, as its API makes it (a PDF), served through the store so that its token stays on the
 * server. A POST: PostEx makes the sheet on each call. Nothing booked today, a refusal or no
 * answer goes back to the orders with why.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  try {
    const { pdf, day } = await services.courierPapers.loadSheet();
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="postex-load-sheet-${day}.pdf"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    session.setFlash({ tone: "error", message: `No load sheet: ${error.message}` });
    throw redirect("/admin/orders", 303);
  }
}

/** The address opened by hand: the button lives on the orders page. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  throw redirect("/admin/orders", 303);
}
