import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/** Every page of the store. The authorization tests read this table too. */
export default [
  index("content/home.tsx"),
  route("about", "content/about.tsx"),
  route("faq", "content/faq.tsx"),
  route("contact", "content/contact.tsx"),

  // Catalog
  route("products", "catalog/products.tsx"),
  route("products/:productId", "catalog/product.tsx"),
  route("brands/:slug", "catalog/brand.tsx"),
  route("compare", "catalog/compare.tsx"),
  route("products/:productId/review", "catalog/product-review.tsx"),

  // Cart
  route("cart", "cart/cart.tsx"),

  // Orders
  route("checkout", "orders/checkout.tsx"),
  route("order-success/:orderId", "orders/order-success.tsx"),
  route("my-orders", "orders/my-orders.tsx"),
  route("my-orders/:orderId/return", "orders/order-return.tsx"),
  route("my-orders/:orderId", "orders/order-details.tsx"),
  route("my-orders/:orderId/cancel", "orders/order-cancel.tsx"),
  // A bank transfer's screenshot, for the order's owner and admins only
  route("orders/:orderId/payment-screenshot", "orders/payment-screenshot.ts"),
  // The link in an order's confirmation message (works without signing in)
  route("c/:token", "orders/confirm-order.tsx"),

  // Accounts
  route("signup", "accounts/signup.tsx"),
  route("login", "accounts/login.tsx"),
  route("logout", "accounts/logout.tsx"),
  route("profile", "accounts/profile.tsx"),
  route("profile/edit", "accounts/profile-edit.tsx"),
  route("profile/password", "accounts/profile-password.tsx"),
  route("forgot-password", "accounts/forgot-password.tsx"),
  route("reset-password", "accounts/reset-password.tsx"),
  // The link mailed to a new email address (works without signing in)
  route("confirm-email", "accounts/confirm-email.tsx"),

  // Stock alerts: the link in their mails
  route("unsubscribe", "catalog/unsubscribe.tsx"),

  // Admin: every page of the desk inside the layout with the admin menu (app/admin/admin-menu.tsx)
  layout("admin/admin-layout.tsx", { id: "admin-layout" }, [
    route("admin", "admin/dashboard.tsx"),
    route("admin/users", "admin/users.tsx"),
    route("admin/users/new", "admin/user-create.tsx"),
    route("admin/users/:userId/role", "admin/user-role.tsx"),
    route("admin/users/:userId/delete", "admin/user-delete.tsx"),
    route("admin/orders", "admin/orders.tsx"),
    route("admin/orders/:orderId", "admin/order-details.tsx"),
    route("admin/orders/:orderId/ship", "admin/order-ship.tsx"),
    route("admin/orders/:orderId/outcome", "admin/order-outcome.tsx"),
    route("admin/orders/book", "admin/order-bookings.tsx"),
    route("admin/products", "admin/products.tsx"),
    route("admin/products/new", "admin/product-create.tsx"),
    route("admin/products/:productId/edit", "admin/product-edit.tsx"),
    route("admin/products/:productId/delete", "admin/product-delete.tsx"),
    route("admin/messages", "admin/messages.tsx"),
    route("admin/discounts", "admin/discounts.tsx"),
    route("admin/discounts/new", "admin/discount-create.tsx"),
    route("admin/discounts/:discountId/edit", "admin/discount-edit.tsx"),
    route("admin/returns", "admin/returns.tsx"),
    route("admin/returns/:returnId", "admin/return-details.tsx"),
    route("admin/reviews", "admin/reviews.tsx"),
    route("admin/brands", "admin/brands.tsx"),
    route("admin/brands/:slug", "admin/brand-edit.tsx"),
    route("admin/outbox", "admin/outbox.tsx"),
    route("admin/couriers", "admin/couriers.tsx"),
    route("admin/settings/orders", "admin/settings-orders.tsx"),
    route("admin/reports", "admin/reports.tsx", { id: "admin-reports" }),
    route("admin/reports/:name", "admin/reports.tsx", { id: "admin-report" }),
  ]),
  // Admin, without the menu: printable packing slips and the CSV download
  route("admin/orders/export.csv", "admin/orders-export.ts"),
  route("admin/reports/:name/export.csv", "admin/report-export.ts"),
  route("admin/couriers/export.csv", "admin/couriers-export.ts"),
  route("admin/orders/slips", "admin/order-slips.tsx"),
  route("admin/orders/:orderId/slip", "admin/order-slip.tsx"),
  // Admin: a booked parcel's airway bill and PostEx's load sheet, PDFs fetched by the store
  route("admin/orders/:orderId/airway-bill", "admin/order-airway-bill.ts"),
  route("admin/orders/load-sheet", "admin/load-sheet.ts"),
  // Admin: a review's photo file whatever the review's status (404 to anyone else)
  route("admin/reviews/photos/:file", "admin/review-photo.ts"),

  // For search engines
  route("sitemap.xml", "content/sitemap.ts"),
  route("sitemaps/:file", "content/sitemap-part.ts"),
  route("robots.txt", "content/robots.ts"),

  // The footer's switch between full and lite (no scripts) pages
  route("lite-mode", "content/lite-mode.ts"),

  // Any other path: the 404 page.
  route("*", "content/not-found.tsx"),
] satisfies RouteConfig;
