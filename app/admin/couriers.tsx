import { data } from "react-router";
import type { CourierLedgerRow, LedgerFigure } from "../../server/modules/fulfilment/courier-ledger.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { AdminListPage } from "./admin-list";
import type { Route } from "./+types/couriers";

/**
 * /admin/couriers: what each courier booked through its API owes and holds (docs/couriers.md,
 * "Payments"). A store without such a courier has no such page (404), and no menu line for it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  if (services.courierLedger.couriers.length === 0) {
    throw data("No courier is booked through its API in this store", { status: 404 });
  }
  return services.courierLedger.figures();
}

export const meta: Route.MetaFunction = routeMeta({ title: "Couriers", path: "/admin/couriers", noindex: true });

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function Figure({ figure }: { figure: LedgerFigure }) {
  return (
    <>
      {figure.count} {figure.count === 1 ? "parcel" : "parcels"}, {formatRupees(figure.amount)}
    </>
  );
}

export default function AdminCouriers({ loaderData }: Route.ComponentProps) {
  const { month, lateDays, rows } = loaderData;
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const monthName = `${MONTHS[monthNumber - 1]} ${year}`;
  return (
    <AdminListPage<CourierLedgerRow>
      title="Couriers"
      summary={`What each courier owes and holds, as it last reported (payments counted in ${monthName}, Pakistan time).`}
      note={
        <p>
          Amounts are the cash each parcel&apos;s courier collects at the door: the order&apos;s total in whole rupees,
          nothing for an order paid in advance. A parcel is late {lateDays} days after the courier picked it up while it
          is neither delivered nor on its way back; a return counts until it is marked received back.
        </p>
      }
      tools={
        <a className="button button--ghost" href="/admin/couriers/export.csv" download>
          Download CSV
        </a>
      }
      list={{
        rows,
        rowKey: (row) => row.courier,
        empty: "No courier is booked through its API.",
        columns: [
          { header: "Courier", cell: (row) => row.courier, title: true },
          { header: "Delivered, not paid yet", cell: (row) => <Figure figure={row.unpaid} /> },
          { header: `Paid in ${monthName}`, cell: (row) => <Figure figure={row.paidThisMonth} /> },
          { header: `Out over ${lateDays} days`, cell: (row) => <Figure figure={row.late} /> },
          { header: "Returns on the way back", cell: (row) => <Figure figure={row.returning} /> },
        ],
      }}
    />
  );
}
