import { Form, Link, redirect } from "react-router";
import {
  REVIEW_HIDDEN_REASON_MAX,
  REVIEW_STATUSES,
  type ReviewStatus,
} from "../../server/modules/reviews/review-values.shared";
import { deskPhotoUrl, purchaseMonth, ratingText } from "../../server/modules/reviews/review-values.shared";
import type { PublicReview } from "../../server/modules/reviews/review.shape";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { FormError, formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { AdminListPage } from "./admin-list";
import { STATUS_LIST_PAGE_SIZE, statusAsked, statusFilter, statusPageLink } from "./status-list";
import type { Route } from "./+types/reviews";

const STATUS_LABELS: Record<ReviewStatus, string> = { pending: "Pending", approved: "Published", hidden: "Hidden" };

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const status = statusAsked(params, REVIEW_STATUSES);
  // Pending first (docs/product.md, "Reviews").
  const list = await services.reviews.listForDesk({ page: pageFromUrl(params), limit: STATUS_LIST_PAGE_SIZE, status });
  // A pending or hidden review's photos are not served at /photos: the admins' route serves them.
  const reviews = list.reviews.map((review) => ({
    ...review,
    photos: review.photos.map((photo) => ({
      ...photo,
      images: photo.images.map((image) => ({ ...image, url: deskPhotoUrl(image.url) })),
    })),
  }));
  return { ...list, reviews, status };
}

/** Publish or hide one review; the list comes back where it was (its filter and page). */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    const review = await services.reviews.moderate(values.reviewId ?? "", {
      status: values.intent === "hide" ? "hidden" : "approved",
      reason: values.reason,
    });
    session.setFlash({
      tone: "success",
      message: review.status === "approved" ? `Published "${review.title}"` : `Hid "${review.title}"`,
    });
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to update the review" });
  }
  const url = new URL(request.url);
  throw redirect(`/admin/reviews${url.search}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Reviews", path: "/admin/reviews", noindex: true });

/** Reviews, pending first: each published with one button, or hidden with a reason the admins keep. */
export default function AdminReviews({ loaderData, actionData }: Route.ComponentProps) {
  const { reviews, pagination, status } = loaderData;
  const failedFor = actionData?.values?.reviewId;
  return (
    <AdminListPage
      title="Reviews"
      summary={`${pagination.total} ${pagination.total === 1 ? "review" : "reviews"}`}
      note="Only customers whose order of a watch was delivered can review it. A published review shows on the watch's page and counts in its rating; its author is mailed."
      filters={statusFilter(status, REVIEW_STATUSES, (option) => STATUS_LABELS[option])}
      list={{
        rows: reviews,
        rowKey: (review) => review._id,
        empty: "No reviews found",
        columns: [
          {
            header: "Watch",
            title: true,
            cell: (review) => <Link to={`/products/${review.product}`}>{review.productName}</Link>,
          },
          {
            header: "Review",
            cell: (review) => (
              <>
                <strong>{review.title}</strong>
                <div>{`${ratingText(review.rating)}: ${review.text}`}</div>
                <div className="muted">{`${review.author}, bought ${purchaseMonth(review.purchasedAt)}`}</div>
                <ReviewPhotos review={review} />
              </>
            ),
          },
          { header: "Written", cell: (review) => formatStoreDateTime(review.createdAt) },
          {
            header: "Status",
            cell: (review) => (
              <>
                {STATUS_LABELS[review.status]}
                {review.hiddenReason ? <div className="muted">{review.hiddenReason}</div> : null}
              </>
            ),
          },
          {
            header: "Actions",
            cell: (review) => {
              const failed = failedFor === review._id ? actionData : undefined;
              const reasonId = `reason-${review._id}`;
              const reasonError = failed?.fieldErrors?.reason;
              return (
                <>
                  {failed ? <FormError message={failed.formError} /> : null}
                  {review.status !== "approved" ? (
                    <Form method="post">
                      <input type="hidden" name="reviewId" value={review._id} />
                      <button type="submit" name="intent" value="approve" className="button button--small">
                        <span>Publish</span>
                        <span className="visually-hidden">{` the review "${review.title}"`}</span>
                      </button>
                    </Form>
                  ) : null}
                  {review.status !== "hidden" ? (
                    <Form method="post" className="review-hide">
                      <input type="hidden" name="reviewId" value={review._id} />
                      <label htmlFor={reasonId}>Reason to hide</label>
                      <input
                        id={reasonId}
                        name="reason"
                        maxLength={REVIEW_HIDDEN_REASON_MAX}
                        defaultValue={failed?.values?.reason}
                        aria-invalid={reasonError ? true : undefined}
                        aria-describedby={reasonError ? `${reasonId}-error` : undefined}
                      />
                      {reasonError ? (
                        <p className="field-error" id={`${reasonId}-error`} role="alert">
                          {reasonError}
                        </p>
                      ) : null}
                      <button type="submit" name="intent" value="hide" className="button button--small button--danger">
                        <span>Hide</span>
                        <span className="visually-hidden">{` the review "${review.title}"`}</span>
                      </button>
                    </Form>
                  ) : null}
                </>
              );
            },
          },
        ],
      }}
      pages={{
        page: pagination.page,
        totalPages: pagination.totalPages,
        href: statusPageLink("/admin/reviews", status),
      }}
    />
  );
}

/** The review's photos as small thumbnails, each a link to its largest size, to judge before publishing. */
function ReviewPhotos({ review }: { review: PublicReview }) {
  if (review.photos.length === 0) return null;
  return (
    <ul className="review__photos">
      {review.photos.map((photo, index) => {
        const largest = photo.images.reduce<(typeof photo.images)[number] | undefined>(
          (wide, image) => (!wide || image.width > wide.width ? image : wide),
          undefined,
        );
        if (!largest) return null;
        return (
          <li key={index}>
            <a href={largest.url}>
              <ProductImage
                src={largest.url}
                images={photo.images}
                placeholder={photo.placeholder}
                alt={`Photo ${index + 1} of ${review.author}'s review, full size`}
                size={96}
              />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
