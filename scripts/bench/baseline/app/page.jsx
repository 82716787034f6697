export default function Page() {
  return (
    <main>
      <h1>Next.js alone</h1>
      <p>A heading and a paragraph: what every App Router page loads and hydrates before any of its own code.</p>
    </main>
  );
}
