import { useEffect, useState } from 'react';
import type { RoutedPath } from '../api/endpoints';
import { useApp } from '../lib/app-context';
import { stayWithoutChannels, withoutChannels } from '../lib/alertPlaces';
import { kindLabel } from '../lib/channelKinds';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { describeError } from '../../../agent/domain/text/errorText';
import { useCanEdit } from '../lib/access';
import type { Channel } from '../api/types';

/**
 * Which channels a monitor (or server, or certificate) alerts: all of them (the default, and
 * channels added later too) or only the ones ticked. Saved with PATCH …/{id} {channel_ids}.
 */
export function ChannelPicker(props: { path: RoutedPath; id: number; what: string }) {
  const { api } = useApp();
  const channels = useResource(queries.channels(api));
  const routed = useResource(queries.routed(api, props.path, props.id));
  const popups = useResource(queries.agent(api)).data?.popups;
  const [chosen, setChosen] = useState<number[] | null | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const canEdit = useCanEdit();

  const stored = routed.data?.channel_ids;
  useEffect(() => setChosen(stored), [stored]);

  if (channels.loading || routed.loading || chosen === undefined) return null;
  const list = channels.data ?? [];
  if (!canEdit) return <RoutedChannels id={props.id} what={props.what} list={list} chosen={chosen} popups={popups} />;
  const dirty = JSON.stringify(chosen) !== JSON.stringify(stored);

  const save = async () => {
    setSaving(true);
    setMessage(null);
    try {
      await api.setChannelIds(props.path, props.id, chosen);
      routed.reload();
      setMessage({ ok: true, text: 'Saved.' });
    } catch (error) {
      setMessage({ ok: false, text: `Could not save the channels: ${describeError(error)}` });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" aria-labelledby={`channels-${props.id}`} data-testid="channel-picker">
      <h2 id={`channels-${props.id}`}>Alert channels</h2>
      {list.length === 0 ? (
        <p className="muted">
          Alerts about this {props.what} show {withoutChannels(popups)}. <a href="#/channels">Add a channel</a> to be told elsewhere.
        </p>
      ) : (
        <>
          <div role="radiogroup" aria-label="Where alerts go" className="picker-choices">
            <label>
              <input type="radio" name={`route-${props.id}`} checked={chosen === null} onChange={() => setChosen(null)} /> All channels
            </label>
            <label>
              <input type="radio" name={`route-${props.id}`} checked={chosen !== null} onChange={() => setChosen(chosen ?? [])} /> Only these:
            </label>
          </div>
          <ul className="picker-list">
            {list.map((channel) => (
              <li key={channel.id}>
                <label>
                  <input
                    type="checkbox"
                    disabled={chosen === null}
                    checked={chosen === null || chosen.includes(channel.id)}
                    onChange={(e) =>
                      setChosen((c) => {
                        const current = c ?? [];
                        return e.target.checked ? [...current, channel.id] : current.filter((id) => id !== channel.id);
                      })
                    }
                  />
                  <span className="picker-name">
                    {channel.name} <span className="muted">({kindLabel(channel.kind)})</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
          {chosen !== null && chosen.length === 0 ? <p className="field-hint">No channel ticked: alerts about it stay {stayWithoutChannels(popups)}.</p> : null}
          <div className="form-actions">
            <button type="button" className="button button-primary" disabled={!dirty || saving} onClick={save}>
              {saving ? 'Saving…' : 'Save channels'}
            </button>
            {message ? <span className={message.ok ? 'muted' : 'field-error'} role="status">{message.text}</span> : null}
          </div>
        </>
      )}
    </section>
  );
}

/** Where alerts go, in words, for a key that may only read: the same facts as the picker, nothing to tick. */
function RoutedChannels(props: { id: number; what: string; list: Channel[]; chosen: number[] | null; popups: boolean | undefined }) {
  const { list, chosen } = props;
  const named = chosen === null ? list : list.filter((channel) => chosen.includes(channel.id));
  let words;
  if (list.length === 0) words = <>Alerts about this {props.what} show {withoutChannels(props.popups)}.</>;
  else if (named.length === 0) words = <>No channel: alerts about it stay {stayWithoutChannels(props.popups)}.</>;
  else
    words = (
      <>
        {chosen === null ? 'All channels: ' : 'Only these: '}
        {named.map((channel) => `${channel.name} (${kindLabel(channel.kind)})`).join(', ')}.
      </>
    );
  return (
    <section className="card" aria-labelledby={`channels-${props.id}`} data-testid="channel-picker">
      <h2 id={`channels-${props.id}`}>Alert channels</h2>
      <p>{words}</p>
    </section>
  );
}
