import { Outlet } from "react-router";
import { requestContext } from "../context";
import { AdminMenu } from "./admin-menu";
import type { Route } from "./+types/admin-layout";

/**
 * Whether the menu has Couriers: a courier is booked through its API. Nothing else, and nothing
 * private: each page guards itself (requireAdmin), so nothing renders for anyone else.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { couriersOn: services.courierLedger.couriers.length > 0 };
}

/**
 * Around every admin page (app/routes.ts): the admin menu, then the page. Printable slips and the
 * CSV export are outside it.
 */
export default function AdminLayout() {
  return (
    <div className="admin-layout">
      <AdminMenu />
      <div className="admin-layout__page">
        <Outlet />
      </div>
    </div>
  );
}
