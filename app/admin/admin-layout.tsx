import { Outlet } from "react-router";
import { AdminMenu } from "./admin-menu";

/**
 * Around every admin page (app/routes.ts): the admin menu, then the page. No loader: each page
 * guards itself (requireAdmin), so nothing renders for anyone else. Printable slips and the CSV
 * export are outside it.
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
