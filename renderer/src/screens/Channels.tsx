import { useState } from 'react';
import type { Channel, ChannelKind, ChannelTestResult } from '../api/types';
import { ChannelForm } from '../components/ChannelForm';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { reportSummary, useReportPreview } from '../components/ReportPreview';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { Time } from '../components/Time';
import { useApp } from '../lib/app-context';
import { channelWhere, KINDS, kindLabel } from '../lib/channelKinds';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { withoutChannels } from '../lib/alertPlaces';
import { useCanEdit } from '../lib/access';
import { useKeepFocus } from '../lib/use-keep-focus';

function TestAnswer(props: { result: ChannelTestResult | Error }) {
  const { result } = props;
  if (result instanceof Error) return <div className="field-error" role="alert">{result.message}</div>;
  return (
    <div className={`test-answer ${result.delivered ? 'test-ok' : 'test-failed'}`} role="status" data-testid="test-answer">
      <strong>{result.delivered ? 'Delivered' : 'Not delivered'}</strong>
      {result.response_status !== null ? <span> · HTTP {result.response_status}</span> : null}
      {result.error ? <div>{result.error}</div> : result.response_body ? <pre className="code">{result.response_body}</pre> : null}
    </div>
  );
}

function ChannelCard(props: { channel: Channel; onChanged: () => void }) {
  const { api } = useApp();
  const { channel } = props;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [testing, setTesting] = useState(false);
  const testButton = useKeepFocus<HTMLButtonElement>(testing);
  const [answer, setAnswer] = useState<ChannelTestResult | Error | null>(null);
  const report = useReportPreview(channel);
  const canEdit = useCanEdit();

  const sendTest = async () => {
    setTesting(true);
    setAnswer(null);
    try {
      setAnswer(await api.testChannel(channel.id));
    } catch (error) {
      setAnswer(error instanceof Error ? error : new Error(String(error)));
    } finally {
      setTesting(false);
    }
  };

  return (
    <li className="card channel" data-testid="channel">
      <div className="channel-head">
        <div>
          <div className="channel-name">
            {channel.name} <span className="badge">{kindLabel(channel.kind)}</span>{' '}
            {channel.failing_since ? (
              <span className="badge badge-bad" title="Deliveries are retried for 24 hours">
                Failing since <Time value={channel.failing_since} relative past />
              </span>
            ) : null}
          </div>
          <div className="muted code">{channelWhere(channel)}</div>
          {channel.quiet_hours ? (
            <div className="muted">
              Quiet {channel.quiet_hours.start}–{channel.quiet_hours.end} ({channel.quiet_hours.timezone})
            </div>
          ) : null}
          {channel.remind_every_hours ? <div className="muted">Reminds every {channel.remind_every_hours} h while a monitor stays failed</div> : null}
          {reportSummary(channel) ? <div className="muted">{reportSummary(channel)}</div> : null}
        </div>
        <div className="page-actions">
          {canEdit ? (
            <button ref={testButton} type="button" className="button" onClick={sendTest} disabled={testing}>
              {testing ? 'Sending…' : 'Send test'}
            </button>
          ) : null}
          {report.button}
          {canEdit ? (
            <>
              <button type="button" className="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
                Edit
              </button>
              <button type="button" className="button button-danger-quiet" onClick={() => setDeleting(true)}>
                Delete…
              </button>
            </>
          ) : null}
        </div>
      </div>
      {answer ? <TestAnswer result={answer} /> : null}
      {report.panel}
      {editing ? (
        <ChannelForm
          kind={channel.kind}
          channel={channel}
          onSaved={() => {
            setEditing(false);
            props.onChanged();
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete “${channel.name}”?`}
        message="Nothing more is sent to it, including deliveries still waiting. Monitors that named it keep their other channels."
        confirmLabel="Delete channel"
        onConfirm={async () => {
          await api.deleteChannel(channel.id);
          setDeleting(false);
          props.onChanged();
        }}
        onClose={() => setDeleting(false)}
      />
    </li>
  );
}

/** Channels: where alerts go besides this desktop (docs/channels.md). */
export function ChannelsScreen() {
  const { api } = useApp();
  const channels = useResource(queries.channels(api));
  const popups = useResource(queries.agent(api)).data?.popups;
  const [kind, setKind] = useState<ChannelKind>(KINDS[0]);
  const [adding, setAdding] = useState(false);
  const [generated, setGenerated] = useState<{ name: string; secret: string } | null>(null);
  const canEdit = useCanEdit();

  const addForm = (
    <section className="card" aria-labelledby="add-channel-title">
      <h2 id="add-channel-title">Add a channel</h2>
      <div className="field">
        <label htmlFor="channel-kind">Kind</label>
        <select id="channel-kind" value={kind} onChange={(e) => setKind(e.target.value as ChannelKind)}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {kindLabel(k)}
            </option>
          ))}
        </select>
      </div>
      <ChannelForm
        key={kind}
        kind={kind}
        onSaved={(channel, secret) => {
          setAdding(false);
          if (secret) setGenerated({ name: channel.name, secret });
          channels.reload();
        }}
        onCancel={() => setAdding(false)}
      />
    </section>
  );

  let body;
  if (channels.loading) body = <Loading label="Loading channels…" />;
  else if (!channels.data) body = <ErrorState error={channels.error!} onRetry={channels.reload} />;
  else if (channels.data.length === 0 && !adding)
    body = canEdit ? (
      <EmptyState title="No channels yet" action={<button type="button" className="button button-primary" onClick={() => setAdding(true)}>Add a channel</button>}>
        Alerts show {withoutChannels(popups)}. Add a channel ({KINDS.map(kindLabel).join(', ')}) to be told wherever you are.
      </EmptyState>
    ) : (
      <EmptyState title="No channels yet">Alerts show {withoutChannels(popups)}.</EmptyState>
    );
  else
    body = (
      <>
        <StaleBanner error={channels.error} onRetry={channels.reload} />
        <ul className="channel-list">
          {channels.data.map((c) => (
            <ChannelCard key={c.id} channel={c} onChanged={channels.reload} />
          ))}
        </ul>
      </>
    );

  return (
    <>
      <PageHeader
        title="Channels"
        subtitle="Every alert goes to all channels, unless a monitor, server or certificate picks its own."
        actions={
          adding || !canEdit ? null : (
            <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
              Add channel
            </button>
          )
        }
      />
      {generated ? (
        <div className="card notice" role="status" data-testid="generated-secret">
          The signing secret of “{generated.name}” is <code>{generated.secret}</code>. Copy it now: it is not shown again.{' '}
          <button type="button" className="button button-quiet" onClick={() => setGenerated(null)}>
            Done
          </button>
        </div>
      ) : null}
      {adding ? addForm : null}
      {body}
    </>
  );
}
