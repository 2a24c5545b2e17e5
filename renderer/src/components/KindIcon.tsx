/** Small line icons for the kinds of notification; decorative, the text says the same. */
const paths: Record<string, string> = {
  monitor: 'M2 12h4l3-8 5 16 3-8h5',
  ssl_certificate: 'M6 11V8a6 6 0 0 1 12 0v3M5 11h14v10H5z',
  server: 'M4 4h16v6H4zM4 14h16v6H4zM8 7h.01M8 17h.01',
};

const circle = 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z';

/** A monitor that failed and one that recovered must differ by more than colour: a cross, a tick. */
const statusPaths: Record<string, string> = {
  failed: `${circle}M9 9l6 6M15 9l-6 6`,
  recovered: `${circle}M8 12.5l2.8 2.8L16 9.5`,
};

export function KindIcon(props: { kind: string; tone?: string; status?: string }) {
  const path = (props.kind === 'monitor' && props.status ? statusPaths[props.status] : undefined) ?? paths[props.kind] ?? `${circle}M12 8v4m0 4h.01`;
  return (
    <span className={`kind-icon kind-${props.tone ?? 'neutral'}`} aria-hidden="true" data-icon={props.status ?? props.kind}>
      <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d={path} />
      </svg>
    </span>
  );
}
