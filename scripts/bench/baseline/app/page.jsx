import { MenuButton } from "./menu-button";

export default function Page() {
  return (
    <main>
      <MenuButton />
      <h1>Next.js alone</h1>
      <p>A heading, a paragraph and one menu button: what every App Router page loads and hydrates before any of its own code.</p>
    </main>
  );
}
