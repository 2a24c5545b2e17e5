import { useState, type FormEvent } from 'react';
import type { Channel, ChannelKind } from '../api/types';
import { useApp } from '../lib/app-context';
import { channelBody, channelEdit, channelFields, MASK_FIELD, QUIET_FIELDS, REMIND_FIELD, REPORT_FIELDS, REPORT_FREQUENCY_OPTIONS } from '../lib/channelKinds';
import { useApiForm } from '../lib/use-api-form';
import { channelInput, channelSettingsInput } from '../../../agent/contract/channels';
import { fieldErrors } from '../lib/formRules';
import { describedBy, Field } from './Field';
import { LocalLinksNote } from './PublicUrlSettings';
import { findTimeZone } from '../../../agent/domain/time/timeZones';

/** What a zone typed as a place is taken as ("paris → Europe/Paris"), as the monitor form's zone field says it. */
const zoneNote = (typed: string | undefined) => (typed?.trim() ? findTimeZone(typed).note : undefined);

function initialValues(kind: ChannelKind, channel?: Channel): Record<string, string> {
  const values: Record<string, string> = { name: channel?.name ?? '' };
  for (const field of channelFields(kind)) {
    const stored = channel?.settings[field.name.slice('settings.'.length)];
    values[field.name] = field.secret || stored === undefined || stored === null ? (field.initial ?? '') : String(stored);
  }
  values['quiet_hours.start'] = channel?.quiet_hours?.start ?? '';
  values['quiet_hours.end'] = channel?.quiet_hours?.end ?? '';
  values['quiet_hours.timezone'] = channel?.quiet_hours?.timezone ?? '';
  values[REMIND_FIELD] = channel?.remind_every_hours ? String(channel.remind_every_hours) : '';
  values[MASK_FIELD] = channel?.settings.mask_secrets === false ? 'false' : 'true';
  const report = (key: string) => channel?.settings[key.slice('settings.'.length)];
  values[REPORT_FIELDS[0]] = typeof report(REPORT_FIELDS[0]) === 'string' ? String(report(REPORT_FIELDS[0])) : 'off';
  values[REPORT_FIELDS[1]] = typeof report(REPORT_FIELDS[1]) === 'string' ? String(report(REPORT_FIELDS[1])) : '';
  values[REPORT_FIELDS[2]] = typeof report(REPORT_FIELDS[2]) === 'string' ? String(report(REPORT_FIELDS[2])) : '';
  return values;
}

/** The form's refusals: the API's own schemas; on an edit an empty secret is kept, so it is not missing. */
export function channelFormErrors(kind: ChannelKind, v: Record<string, string>, editing: boolean): Record<string, string | undefined> {
  const body = channelBody(kind, v, editing);
  const errors: Record<string, string | undefined> = {
    ...fieldErrors(channelInput, { ...body, kind }),
    ...fieldErrors(channelSettingsInput(kind), { settings: body.settings }),
  };
  for (const field of channelFields(kind)) if (editing && field.secret && !v[field.name]) errors[field.name] = undefined;
  return errors;
}

/**
 * Adds a channel of `kind`, or edits `channel`: the kind's fields checked as you type, the API's
 * 422 next to the field it names. Secrets are never shown; on an edit an empty one is kept.
 */
export function ChannelForm(props: {
  kind: ChannelKind;
  channel?: Channel;
  onSaved: (channel: Channel, generatedSecret?: string) => void;
  onCancel?: () => void;
}) {
  const { api } = useApp();
  const { kind, channel } = props;
  const editing = Boolean(channel);
  const prefix = `channel-${channel?.id ?? 'new'}`;
  const [opened] = useState(() => initialValues(kind, channel));
  const { values, set, shown, formError, busy, submit } = useApiForm<string>({
    idPrefix: prefix,
    initial: opened,
    validate: (v) => channelFormErrors(kind, v, editing),
  });

  const onSubmit = (event: FormEvent) =>
    submit(event, async (v) => {
      if (channel) {
        const edit = channelEdit(kind, opened, v);
        props.onSaved(Object.keys(edit).length > 0 ? await api.updateChannel(channel.id, edit) : channel);
      } else {
        const body = channelBody(kind, v, editing);
        const created = await api.createChannel({ ...body, kind });
        props.onSaved(created, created.generated_secret);
      }
    });

  const control = (name: string, label: string, extra: { placeholder?: string; hint?: string; secret?: boolean; options?: string[] } = {}) => {
    const id = `${prefix}-${name}`;
    const secretKept = editing && extra.secret && channel?.settings[name.slice('settings.'.length)];
    const hint = secretKept ? 'Saved. Leave empty to keep it; type to replace it. Changing where the channel sends asks for it again.' : extra.hint;
    const common = {
      id,
      value: values[name] ?? '',
      'aria-invalid': Boolean(shown(name)),
      'aria-describedby': describedBy(id, Boolean(hint), shown(name)),
    };
    return (
      <Field key={name} id={id} label={label} hint={hint} error={shown(name)}>
        {extra.options ? (
          <select {...common} onChange={(e) => set(name, e.target.value)}>
            {extra.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...common}
            type={extra.secret ? 'password' : 'text'}
            placeholder={extra.placeholder}
            onChange={(e) => set(name, e.target.value)}
            spellCheck={false}
            autoComplete={extra.secret ? 'new-password' : 'off'}
          />
        )}
      </Field>
    );
  };

  return (
    <form className="channel-form" onSubmit={onSubmit} noValidate aria-label={editing ? `Edit ${channel!.name}` : `Add ${kind} channel`}>
      <LocalLinksNote />
      {control('name', 'Name', { placeholder: 'e.g. Phone, #ops, on-call mail' })}
      {channelFields(kind).map((field) => control(field.name, field.label, field))}
      <div className="field">
        <label>
          <input
            type="checkbox"
            id={`${prefix}-${MASK_FIELD}`}
            checked={values[MASK_FIELD] !== 'false'}
            onChange={(e) => set(MASK_FIELD, e.target.checked ? 'true' : 'false')}
            aria-describedby={`${prefix}-${MASK_FIELD}-hint`}
          />{' '}
          Mask secrets in job output
        </label>
        <p className="field-hint" id={`${prefix}-${MASK_FIELD}-hint`}>
          Passwords, tokens, keys and private keys a job prints are sent here as *** (the dashboard keeps them as they were).
        </p>
      </div>
      <fieldset className="quiet-hours">
        <legend>Quiet hours (optional)</legend>
        <p className="field-hint">Deliveries due in these hours wait until they end, in this time zone. Desktop popups are not held.</p>
        <div className="inline-form">
          {control(QUIET_FIELDS[0], 'Quiet from', { placeholder: '22:00' })}
          {control(QUIET_FIELDS[1], 'Quiet until', { placeholder: '07:00' })}
          {control(QUIET_FIELDS[2], 'Time zone', { placeholder: Intl.DateTimeFormat().resolvedOptions().timeZone, hint: zoneNote(values[QUIET_FIELDS[2]]) })}
        </div>
      </fieldset>
      {control(REMIND_FIELD, 'Remind every (hours, optional)', {
        placeholder: 'never',
        hint: 'While a monitor stays failed, send its alert here again every N hours, until it recovers or is paused.',
      })}
      <fieldset className="quiet-hours">
        <legend>Reports (optional)</legend>
        <p className="field-hint">
          A summary of the monitors whose alerts come here: runs, failures, missed runs, longest run and uptime over the last day, week (Monday to Monday) or month (from the 1st).
        </p>
        <div className="inline-form">
          {control(REPORT_FIELDS[0], 'How often', { options: REPORT_FREQUENCY_OPTIONS })}
          {control(REPORT_FIELDS[1], 'At', { placeholder: '08:00' })}
          {control(REPORT_FIELDS[2], 'Report zone', { placeholder: "the agent's", hint: zoneNote(values[REPORT_FIELDS[2]]) })}
        </div>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : editing ? 'Save' : 'Add channel'}
        </button>
        {props.onCancel ? (
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {formError ? (
        <div className="field-error" role="alert">
          {formError}
        </div>
      ) : null}
    </form>
  );
}
