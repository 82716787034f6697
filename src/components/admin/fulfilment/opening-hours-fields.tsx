import { WEEKDAYS } from "@/lib/days";
import { formatOpeningHours, type OpeningDay } from "@/lib/opening-hours";
import { openingHoursMessages } from "@/lib/messages";

/** Each weekday: open or closed, from and to. Customers read them worded as the line under it. */
export function OpeningHoursFields({ days, onChange }: { days: OpeningDay[]; onChange: (days: OpeningDay[]) => void }) {
  const set = (weekday: number, change: Partial<OpeningDay>) => onChange(days.map((day) => (day.weekday === weekday ? { ...day, ...change } : day)));
  return (
    <fieldset id="opening-hours" data-testid="opening-hours">
      <legend className="mb-1.5 text-sm font-medium">{openingHoursMessages.legend}</legend>
      <ul className="space-y-1">
        {days.map((day) => {
          const name = WEEKDAYS[day.weekday - 1] ?? String(day.weekday);
          return (
            <li key={day.weekday} className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <label className="flex min-h-11 w-44 items-center gap-2 text-sm">
                <input type="checkbox" checked={day.open} onChange={(e) => set(day.weekday, { open: e.target.checked })} className="size-4 accent-brand-700" />
                {`Open on ${name}`}
              </label>
              {day.open ? (
                <span className="flex items-center gap-2 text-sm">
                  <input type="time" aria-label={`${name} opens`} value={day.opens} onChange={(e) => set(day.weekday, { opens: e.target.value })} className="min-h-11 rounded-lg border border-line px-2" />
                  <span aria-hidden="true">to</span>
                  <input type="time" aria-label={`${name} closes`} value={day.closes} onChange={(e) => set(day.weekday, { closes: e.target.value })} className="min-h-11 rounded-lg border border-line px-2" />
                </span>
              ) : (
                <span className="text-sm text-muted">Closed</span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="mt-2 text-sm text-muted" data-testid="opening-hours-text">
        Customers see: {formatOpeningHours(days)}
      </p>
    </fieldset>
  );
}
