import { Link } from "react-router";
import type { ReviewChance } from "../../server/modules/reviews/reviews.service";
import type { PublicReview } from "../../server/modules/reviews/review.shape";
import { purchaseMonth, ratingText, starsOf } from "../../server/modules/reviews/review-values.shared";
import { ProductImage } from "../components/product-image";

/**
 * The product page's reviews (docs/product.md, "Reviews"): the newest published ones, each marked
 * "Verified purchase" with its month; "Write a review" for a buyer who has not written one.
 */
export function ProductReviews({
  productId,
  count,
  reviews,
  chance,
}: {
  productId: string;
  count: number;
  reviews: PublicReview[];
  chance: ReviewChance | null;
}) {
  return (
    <section className="section product-reviews" id="reviews" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">{count > 0 ? `Reviews (${count})` : "Reviews"}</h2>
      {chance === "may-review" ? (
        <p>
          <Link className="button" to={`/products/${productId}/review`}>
            Write a review
          </Link>
        </p>
      ) : null}
      {chance === "reviewed" ? <p className="muted">Thank you for your review of this watch.</p> : null}
      {reviews.length === 0 ? (
        <p className="muted">
          No reviews yet. Reviews come only from customers whose order of this watch was delivered.
        </p>
      ) : (
        <ul className="review-list">
          {reviews.map((review) => (
            <li key={review._id} className="card review">
              <h3 className="review__title">{review.title}</h3>
              <p className="rating">
                <span className="rating__stars" aria-hidden="true">
                  {starsOf(review.rating)}
                </span>
                <span>{ratingText(review.rating)}</span>
              </p>
              <p className="review__by muted">
                {`${review.author} · `}
                <strong>Verified purchase</strong>
                {` · bought ${purchaseMonth(review.purchasedAt)}`}
              </p>
              <p className="review__text">{review.text}</p>
              {review.photos.length > 0 ? (
                <ul className="review__photos">
                  {review.photos.map((photo, index) => (
                    <li key={index}>
                      <ProductImage
                        src={photo.images[photo.images.length - 1]?.url ?? ""}
                        images={photo.images}
                        placeholder={photo.placeholder}
                        alt={`Photo ${index + 1} of ${review.author}'s review`}
                        size={160}
                      />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
