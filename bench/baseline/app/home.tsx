/** A page with no loader and no data: what React Router costs by itself. */
export function meta() {
  return [{ title: "Baseline" }];
}

export default function Home() {
  return (
    <main>
      <h1>Baseline</h1>
      <p>A React Router page with no data.</p>
    </main>
  );
}
