import { useMemo } from 'react';
import { resolveZone, searchZones, zonePlace } from '../lib/zoneSearch';
import { zoneList } from '../lib/validate';
import { describedBy, Field } from './Field';

/**
 * The time zone of a monitor, found by typing a place: "Paris", "new york", "los angeles".
 * A place that names one zone is taken as it is typed (the hint shows the zone it means);
 * otherwise the matching zones are offered as buttons below the field.
 */
export function ZoneField(props: { id: string; value: string; error?: string; onChange: (value: string) => void }) {
  const { id, value, error, onChange } = props;
  const zones = useMemo(zoneList, []);
  const resolved = resolveZone(value, zones);
  const suggestions = resolved === value ? [] : searchZones(value, zones, 6).filter((match) => match.zone !== resolved || value.trim() === '');
  const hint = resolved && resolved !== value ? `${value.trim()} → ${resolved}` : 'Type a city or a region, e.g. Paris or New York';
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
          <option key={zone} value={zone} label={zonePlace(zone).place} />
        ))}
      </datalist>
      {suggestions.length > 0 ? (
        <div className="chips zone-suggestions" aria-label="Suggested zones">
          {suggestions.map((match) => (
            <button key={`${match.place}-${match.zone}`} type="button" className="chip" onClick={() => onChange(match.zone)}>
              {match.place} <span className="muted">· {match.zone}</span>
            </button>
          ))}
        </div>
      ) : null}
    </Field>
  );
}
