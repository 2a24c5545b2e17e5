import { useState } from 'react';

/** A read-only line of code with a Copy button (falls back to selecting the text). */
export function CopyField(props: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = `copy-${props.label.replace(/\W+/g, '-').toLowerCase()}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  }

  return (
    <div className="copy-field">
      <label htmlFor={id}>{props.label}</label>
      <div className="copy-row">
        <input id={id} className="code" readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={copy} aria-label={`Copy ${props.label}`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
