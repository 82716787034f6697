import { Link } from "@/components/ui/link";
import type { LegalBlock, LegalDocument, RichText } from "@/lib/business-content";

const linkClass = "font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800";

function Rich({ text }: { text: RichText }) {
  if (typeof text === "string") return text;
  return text.map((part) =>
    typeof part === "string" ? (
      part
    ) : (
      <Link key={part.href + part.label} href={part.href} className={linkClass}>
        {part.label}
      </Link>
    ),
  );
}

/** An e-mail address may wrap after its "@" on a phone rather than mid-word. */
function Breakable({ value }: { value: string }) {
  const at = value.indexOf("@");
  if (at < 0) return value;
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  );
}

function Block({ block }: { block: LegalBlock }) {
  switch (block.kind) {
    case "text":
      return (
        <p>
          <Rich text={block.text} />
        </p>
      );
    case "list":
      return (
        <ul className="list-disc space-y-2 pl-5 marker:text-brand-600">
          {block.items.map((item, index) => (
            <li key={index}>
              <Rich text={item} />
            </li>
          ))}
        </ul>
      );
    case "pairs":
      return (
        <dl className="space-y-4">
          {block.items.map((item) => (
            <div key={item.term} className="border-l-4 border-accent-500 pl-4">
              <dt className="font-semibold text-ink">{item.term}</dt>
              <dd className="mt-1">
                <Rich text={item.detail} />
              </dd>
            </div>
          ))}
        </dl>
      );
    case "contact":
      return (
        <div className="rounded-2xl border border-line bg-white p-5">
          <h3 className="font-semibold text-ink">{block.title}</h3>
          <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[8rem_minmax(0,1fr)]">
            {/* A detail the shop has not given (blank) is left out, never shown empty. */}
            {block.items.filter((item) => item.value !== "").map((item) => (
              <div key={item.label} className="contents">
                <dt className="text-sm font-semibold uppercase tracking-wider text-brand-700 sm:pt-0.5">{item.label}</dt>
                <dd className="text-ink wrap-break-word">
                  {item.href ? (
                    <a href={item.href} className={linkClass}>
                      <Breakable value={item.value} />
                    </a>
                  ) : (
                    item.value
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      );
  }
}

/**
 * A terms or privacy page: title, summary and date, a list of its sections to jump to, then the
 * sections. The words come from src/lib/business-content.ts; this only lays them out.
 */
export function LegalDocumentView({ content, eyebrow }: { content: LegalDocument; eyebrow: string }) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold uppercase tracking-widest text-brand-700">{eyebrow}</p>
        <h1 className="mt-3 text-3xl font-bold sm:text-5xl">{content.title}</h1>
        <p className="mt-4 text-lg leading-relaxed text-muted">{content.summary}</p>
        <p className="mt-3 text-sm text-muted">Last updated: {content.lastUpdated}</p>
      </header>

      <div className="mt-10 grid grid-cols-1 gap-10 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <nav aria-labelledby="contents-heading" className="rounded-2xl border border-line bg-white p-5 lg:sticky lg:top-24 lg:self-start">
          <h2 id="contents-heading" className="text-sm font-semibold uppercase tracking-wider text-brand-700">
            On this page
          </h2>
          <ol className="mt-3 space-y-2 text-sm">
            {content.sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-ink hover:text-brand-700 hover:underline">
                  {section.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="max-w-3xl space-y-12">
          {content.sections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-24">
              <h2 id={`${section.id}-heading`} className="text-2xl font-bold">
                {section.heading}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-muted">
                {section.blocks.map((block, index) => (
                  <Block key={index} block={block} />
                ))}
              </div>
            </section>
          ))}
        </div>
      </div>
    </main>
  );
}
