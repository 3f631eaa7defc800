import { NotFoundError, InvalidInputError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import type { Route } from "./+types/report-export";

/**
 * /admin/reports/{name}/export.csv: the report's table as a CSV download for the same period as
 * its page (docs/product.md, "Reports"). Private: never kept by a cache.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const search = new URL(request.url).searchParams;
  const input = { from: search.get("from") ?? "", to: search.get("to") ?? "", by: search.get("by") ?? "" };
  const plain = (text: string, status: number) =>
    new Response(text, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  try {
    const csv = await services.reports.reportCsv(params.name, input);
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="report-${params.name}-${input.from || "last-30-days"}${input.to ? `-to-${input.to}` : ""}.csv"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof InvalidInputError) return plain(error.message, 400);
    if (error instanceof NotFoundError) return plain(error.message, 404);
    throw error;
  }
}
