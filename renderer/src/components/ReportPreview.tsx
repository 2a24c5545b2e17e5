import { useState } from 'react';
import type { Channel, ReportPreview as Preview } from '../api/types';
import { useApp } from '../lib/app-context';

/** "Daily report at 08:00 (Europe/Berlin)", or null when the channel sends none. */
export function reportSummary(channel: Channel): string | null {
  const s = channel.settings as Record<string, string | null | undefined>;
  if (!s.report || s.report === 'off') return null;
  const when = s.report === 'weekly' ? ' on Mondays' : s.report === 'monthly' ? ' on the 1st' : '';
  return `${s.report[0]!.toUpperCase()}${s.report.slice(1)} report${when} at ${s.report_time ?? '08:00'} (${s.report_timezone ?? "the agent's zone"})`;
}

/**
 * "Preview report": the report this channel would be sent for the last whole period (its own
 * frequency, or daily while its reports are off), read from the agent: the button and, once
 * asked, the panel under the channel.
 */
export function useReportPreview(channel: Channel) {
  const { api } = useApp();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<Preview | Error | null>(null);

  const toggle = async () => {
    if (open) {
      setOpen(false);
      return;
    }
    setOpen(true);
    setBusy(true);
    try {
      setPreview(await api.reportPreview(channel.id));
    } catch (error) {
      setPreview(error instanceof Error ? error : new Error(String(error)));
    } finally {
      setBusy(false);
    }
  };

  return {
    button: (
      <button type="button" className="button" onClick={toggle} aria-expanded={open} disabled={busy}>
        {busy ? 'Reading…' : open ? 'Hide report' : 'Preview report'}
      </button>
    ),
    panel: open && preview && !busy ? <ReportPreviewPanel preview={preview} /> : null,
  };
}

function ReportPreviewPanel(props: { preview: Preview | Error }) {
  const { preview } = props;
  if (preview instanceof Error) return <div className="field-error report-preview" role="alert">{preview.message}</div>;
  return (
    <section className="report-preview" aria-label="Report preview" data-testid="report-preview">
      <p className="muted">
        The {preview.frequency} report for the last whole period, as it would be made now. A chat service is sent as many lines as it takes, then “… and N more monitors” with a link to them all.
      </p>
      <pre className="code">{preview.text}</pre>
    </section>
  );
}
