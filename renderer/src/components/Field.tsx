import type { ReactNode } from 'react';

/** A labelled form control with its hint and its error wired up for screen readers. */
export function Field(props: { id: string; label: string; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className={`field${props.error ? ' field-invalid' : ''}`}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <div className="field-hint" id={`${props.id}-hint`}>
          {props.hint}
        </div>
      ) : null}
      {props.error ? (
        <div className="field-error" id={`${props.id}-error`} role="alert">
          {props.error}
        </div>
      ) : null}
    </div>
  );
}

/** aria-describedby for a control inside Field. */
export function describedBy(id: string, hint: boolean, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/**
 * A whole number typed in a Field (minutes, a count): its hint and error wired up alike. A text
 * field, not type="number": that one hands the page "" for what it cannot read ("3-0", "1e"), and
 * empty means no limit or the default here, so a slip would be saved as something else, unsaid.
 */
export function WholeNumberField(props: {
  id: string;
  label: string;
  hint: ReactNode;
  error?: string;
  value: string;
  placeholder?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint}>
      <input
        id={props.id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        placeholder={props.placeholder}
        aria-invalid={Boolean(props.error)}
        aria-describedby={describedBy(props.id, true, props.error)}
      />
    </Field>
  );
}
