import { NavLink, useRouteLoaderData } from "react-router";
import { Drawer } from "../components/drawer";

/**
 * The admin areas, in the menu's order (docs/product.md, "Admin"). A new area is one line here;
 * its pages go inside the admin layout in app/routes.ts.
 */
export const ADMIN_AREAS: readonly { to: string; label: string; onlyWithCouriers?: boolean }[] = [
  { to: "/admin", label: "Dashboard" },
  { to: "/admin/reports", label: "Reports" },
  { to: "/admin/orders", label: "Orders" },
  // Only in a store with a courier booked through its API (app/admin/admin-layout.tsx says which).
  { to: "/admin/couriers", label: "Couriers", onlyWithCouriers: true },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/brands", label: "Brands" },
  { to: "/admin/returns", label: "Returns" },
  { to: "/admin/reviews", label: "Reviews" },
  { to: "/admin/discounts", label: "Discounts" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/outbox", label: "Outbox" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/settings/orders", label: "Order Settings" },
];

/**
 * The one admin menu, on every admin page: a column beside the page on a wide screen, a drawer
 * (a <details>, no script needed) above it on a phone. An area's link is marked current on its
 * own pages too (an order's page is in Orders).
 */
export function AdminMenu() {
  const layout = useRouteLoaderData<{ couriersOn: boolean }>("admin-layout");
  const areas = ADMIN_AREAS.filter((area) => !area.onlyWithCouriers || layout?.couriersOn);
  return (
    <nav className="admin-menu" aria-label="Admin">
      <Drawer summary="Admin menu">
        <ul className="admin-menu__list">
          {areas.map((area) => (
            <li key={area.to}>
              <NavLink to={area.to} end={area.to === "/admin"}>
                {area.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </Drawer>
    </nav>
  );
}
