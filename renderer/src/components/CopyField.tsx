import { useState } from 'react';

/** A read-only line of code with a Copy button (falls back to selecting the text). */
export function CopyField(props: { label: string; value: string }) {
  const [said, setSaid] = useState<string | null>(null);
  const id = `copy-${props.label.replace(/\W+/g, '-').toLowerCase()}`;

  const say = (words: string) => {
    setSaid(words);
    setTimeout(() => setSaid(null), 1500);
  };

  async function copy() {
    try {
      await navigator.clipboard.writeText(props.value);
      return say('Copied');
    } catch {
      // No clipboard API: a page opened over plain http from another machine is no secure
      // context, and the browser gives it none. The older command still copies a selection.
    }
    const field = document.getElementById(id) as HTMLInputElement | null;
    field?.select();
    if (field && document.execCommand('copy')) return say('Copied');
    say('Selected: press Ctrl+C');
  }

  return (
    <div className="copy-field">
      <label htmlFor={id}>{props.label}</label>
      <div className="copy-row">
        <input id={id} className="code" readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={copy} aria-label={`Copy ${props.label}`}>
          {said ?? 'Copy'}
        </button>
      </div>
    </div>
  );
}
