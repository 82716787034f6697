/** The frame of the sign-in and sign-up pages. */
export function AuthCard({ title, intro, children }: { title: string; intro: string; children: React.ReactNode }) {
  return (
    <main className="mx-auto flex max-w-6xl justify-center px-4 py-12 sm:py-16">
      <div className="w-full max-w-md rounded-3xl border border-line bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-3xl font-bold text-ink">{title}</h1>
        <p className="mt-2 text-muted">{intro}</p>
        <div className="mt-8">{children}</div>
      </div>
    </main>
  );
}
