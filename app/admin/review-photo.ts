import { requestContext } from "../context";
import type { Route } from "./+types/review-photo";

/**
 * /admin/reviews/photos/{file}: a file of a review's photo for the admins moderating it, whatever
 * the review's status (docs/product.md, "Reviews"). A pending or hidden review's photo is shown to
 * no one else, so anyone else gets 404, guests included (no log-in redirect that would say the
 * file exists), and no cache keeps it.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const file = user?.role === "admin" ? await services.reviews.deskPhotoFile(params.file) : null;
  if (!file) {
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.type,
      "Content-Length": String(file.bytes.length),
      "Cache-Control": "private, no-store",
    },
  });
}
