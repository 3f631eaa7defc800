/** The store's promises as cards (home page blurbs, about page). */
export function FeatureGrid({ features }: { features: { title: string; text: string }[] }) {
  return (
    <ul className="feature-grid">
      {features.map((feature) => (
        <li key={feature.title} className="card feature">
          <h3>{feature.title}</h3>
          <p>{feature.text}</p>
        </li>
      ))}
    </ul>
  );
}
