import { STORE_TIME_ZONE } from "../../server/modules/orders/order-values.shared";
import { InvalidInputError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { orderFilterFromUrl } from "./order-filter";
import type { Route } from "./+types/orders-export";

/**
 * /admin/orders/export.csv: the orders of the admin list's filter as a CSV download
 * (docs/product.md, "Finding and exporting orders"). Private: never kept by a cache.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const filter = orderFilterFromUrl(new URL(request.url).searchParams);
  let csv: string;
  try {
    csv = await services.orderDesk.exportCsv(filter);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return new Response(error.message, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const day = new Date().toLocaleDateString("en-CA", { timeZone: STORE_TIME_ZONE });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
