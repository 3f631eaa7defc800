import { Form, Link, data, redirect } from "react-router";
import { PHOTO_MAX_BYTES, PHOTO_MAX_PIXELS, photoFormatsText } from "../../server/modules/catalog/photo-values.shared";
import {
  NOT_A_BUYER,
  REVIEW_PHOTOS_MAX,
  REVIEW_RATING_MAX,
  REVIEW_TEXT_MAX,
  REVIEW_TITLE_MAX,
} from "../../server/modules/reviews/review-values.shared";
import { ForbiddenError, NotFoundError, statusOf } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { photoAccept } from "../admin/photo-field";
import { Field, FormActions, FormError, formFailure, formHeaders } from "../lib/forms";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import type { Route } from "./+types/product-review";

const RATINGS = Array.from({ length: REVIEW_RATING_MAX }, (_, index) => REVIEW_RATING_MAX - index);

/**
 * "Write a review" (docs/product.md, "Reviews"): only a customer whose order of the watch was
 * delivered, once. Anyone else signed in is told why (403); a second review says it was written.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  const product = await foundOr404(services.catalog.getProduct(params.productId));
  const chance = await services.reviews.reviewChance(user._id, product._id);
  const shown = {
    product: { _id: product._id, name: product.name },
    chance,
    photoFormats: await services.catalog.photoFormats(),
  };
  return chance === "not-a-buyer" ? data(shown, { status: 403 }) : shown;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, session, readPhotoForm } = context.get(requestContext);
  // The post may carry photos of up to 10 MB each: they are read only once the customer is known
  // to be allowed to review the watch (ReviewsService.submitReview).
  let values: Record<string, string> = {};
  try {
    await services.reviews.submitReview(user._id, params.productId, async () => {
      const form = await readPhotoForm(request);
      values = form.fields;
      return { fields: { rating: values.rating, title: values.title, text: values.text }, photos: form.photos };
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw data(error.message, { status: statusOf(error) });
    if (error instanceof ForbiddenError) return formFailure(error, values);
    return formFailure(error, values, { fallback: "Failed to save your review" });
  }
  session.setFlash({ tone: "success", message: "Thank you: your review will appear once we have checked it." });
  throw redirect(`/products/${params.productId}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Write a Review", noindex: true });

// A refusal that asks to wait (the photo lane full: 503) carries Retry-After.
export const headers = formHeaders;

export default function WriteReview({ loaderData, actionData }: Route.ComponentProps) {
  const { product, chance, photoFormats } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  return (
    <section className="form-page">
      <p>
        <Link to={`/products/${product._id}`}>← Back to {product.name}</Link>
      </p>
      <h1>Review {product.name}</h1>
      {chance === "may-review" ? (
        <>
          <p>Your review shows &quot;Verified purchase&quot; and the month of your order once we have checked it.</p>
          <FormError message={actionData?.formError} />
          <Form method="post" encType="multipart/form-data" noValidate className="card">
            <fieldset aria-describedby={errors.rating ? "field-rating-error" : undefined}>
              <legend>Your rating</legend>
              {RATINGS.map((rating) => (
                <label key={rating} className="choice">
                  <input
                    type="radio"
                    name="rating"
                    value={String(rating)}
                    defaultChecked={values.rating === String(rating)}
                  />{" "}
                  {`${rating} ${rating === 1 ? "star" : "stars"}`}
                </label>
              ))}
              {errors.rating ? (
                <p className="field-error" id="field-rating-error" role="alert">
                  {errors.rating}
                </p>
              ) : null}
            </fieldset>
            <Field
              name="title"
              label="Title"
              defaultValue={values.title}
              error={errors.title}
              maxLength={REVIEW_TITLE_MAX}
              required
            />
            <Field name="text" label="Your review" error={errors.text} hint={`At most ${REVIEW_TEXT_MAX} characters`}>
              <textarea
                id="field-text"
                name="text"
                rows={6}
                maxLength={REVIEW_TEXT_MAX}
                defaultValue={values.text}
                required
                aria-invalid={errors.text ? true : undefined}
                aria-describedby={[errors.text ? "field-text-error" : "", "field-text-hint"].join(" ").trim()}
              />
            </Field>
            <ReviewPhotosField formats={photoFormats} error={errors.image} />
            <FormActions label="Send Review" pendingLabel="Sending..." cancelTo={`/products/${product._id}`} />
          </Form>
        </>
      ) : (
        <p className="alert alert--info" role="status">
          {chance === "reviewed" ? "You have already reviewed this watch. Thank you!" : NOT_A_BUYER}
        </p>
      )}
    </section>
  );
}

/**
 * Up to REVIEW_PHOTOS_MAX photos in one file input (a phone's picker chooses several at once),
 * sent as `image` like a product's photo. A browser cannot be handed files back: after a refusal
 * the text is kept and the photos are chosen again.
 */
function ReviewPhotosField({ formats, error }: { formats: string[]; error?: string }) {
  const megabytes = PHOTO_MAX_BYTES / 1024 / 1024;
  const megapixels = PHOTO_MAX_PIXELS / 1_000_000;
  return (
    <div className="field">
      <label htmlFor="field-image">Photos (optional)</label>
      <input
        id="field-image"
        name="image"
        type="file"
        multiple
        accept={photoAccept(formats)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? "field-image-error" : "", "field-image-hint"].join(" ").trim()}
      />
      <p className="field-hint" id="field-image-hint">
        {`Up to ${REVIEW_PHOTOS_MAX} photos: ${photoFormatsText(formats)}, each at most ${megabytes} MB and ${megapixels} megapixels.`}
      </p>
      {error ? (
        <p className="field-error" id="field-image-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
