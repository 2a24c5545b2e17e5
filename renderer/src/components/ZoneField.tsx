import { useMemo } from 'react';
import { currentZoneNames, findTimeZone, zoneChoices } from '../../../agent/domain/time/timeZones';
import { describedBy, Field } from './Field';

/**
 * The time zone of a monitor, found by typing a place: "Paris", "new york", "india". A place
 * that names one zone is taken as it is typed (the hint shows the zone it means, and its button
 * comes first); the matching zones are offered as buttons below the field, in the order the
 * API's refusal names them (for "UTC+2": Etc/GMT-2, its sign reversed, then cities of that clock). The rule is the API's
 * (agent/domain/time/timeZones.ts): an old name becomes its current one, an abbreviation is refused.
 */
export function ZoneField(props: { id: string; value: string; error?: string; onChange: (value: string) => void }) {
  const { id, value, error, onChange } = props;
  const zones = useMemo(currentZoneNames, []);
  const found = findTimeZone(value);
  // The zones the field takes and its error names come first, in the order they say them ("india": Asia/Kolkata).
  const suggestions = zoneChoices(value, 6);
  const hint = found.note ?? 'Type a city, a country or a zone, e.g. Paris, India or Europe/Paris';
  return (
    <Field id={id} label="Time zone" error={error} hint={hint}>
      <input
        id={id}
        list={`${id}-list`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onFocus={(e) => e.currentTarget.select()}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy(id, true, error)}
      />
      <datalist id={`${id}-list`}>
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      {suggestions.length > 0 ? (
        <div className="chips zone-suggestions" aria-label="Suggested zones">
          {suggestions.map((match) => (
            <button key={match.zone} type="button" className="chip" onClick={() => onChange(match.zone)}>
              {match.place === match.zone ? (
                match.zone
              ) : (
                <>
                  {match.place} <span className="muted">· {match.country ? `${match.country} · ` : ''}{match.zone}</span>
                </>
              )}
            </button>
          ))}
        </div>
      ) : null}
    </Field>
  );
}
