import { describe, expect, it } from 'vitest';
import { desktopNotifier, popupOptions, type SendPopup } from '../../../agent/engine/popups/desktopNotifier';
import type { Popup } from '../../../agent/engine/popups/notifier';

const popup: Popup = { title: 'backup failed', body: 'No pulse within 5 min', route: '/monitors/1' };

/** Resolves once `count` sends were attempted (popups go out on a later tick). */
function sender(behaviour: (call: number) => Error | null | 'throw', count: number) {
  const sent: Popup[] = [];
  let finish: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const send: SendPopup = (p, done) => {
    sent.push(p);
    const outcome = behaviour(sent.length);
    if (sent.length === count) setImmediate(finish);
    if (outcome === 'throw') throw new Error('spawn notify-send ENOENT');
    done(outcome);
  };
  return { send, sent, finished };
}

describe('desktop notifier', () => {
  it('hands popups to the OS without blocking the caller', async () => {
    const { send, sent, finished } = sender(() => null, 1);
    const logs: string[] = [];
    const notifier = desktopNotifier((line) => logs.push(line), send);
    notifier.show(popup);
    expect(sent).toEqual([]); // not yet: show() returned before anything was sent
    await finished;
    expect(sent).toEqual([popup]);
    expect(logs).toEqual([]);
  });

  it('logs once when the machine has no notification service, and never throws', async () => {
    const { send, sent, finished } = sender((call) => (call === 2 ? 'throw' : new Error('notify-send must be installed on the system.')), 3);
    const logs: string[] = [];
    const notifier = desktopNotifier((line) => logs.push(line), send);
    expect(() => {
      notifier.show(popup);
      notifier.show(popup);
      notifier.show(popup);
    }).not.toThrow();
    await finished;
    expect(sent).toHaveLength(3);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('notify-send must be installed');
  });
});

describe('what notify-send is given', () => {
  // notify-send hands the body to the notification server, which reads it as markup on Linux.
  const hostile: Popup = { title: 'backup\u001b[2J failed', body: 'see <a href="http://evil.example">here</a> & <b>now</b>\u0007', route: '/monitors/1' };

  it('on Linux, a job\'s output shows as text: no link, no bold, no terminal control', () => {
    const options = popupOptions(hostile, undefined, 'linux');
    expect(options.message).toBe('see &lt;a href="http://evil.example"&gt;here&lt;/a&gt; &amp; &lt;b&gt;now&lt;/b&gt;\\u0007');
    expect(options.title).toBe('backup\\u001b[2J failed');
  });

  it('elsewhere, where the body is plain text, only the control characters are written out', () => {
    expect(popupOptions(hostile, undefined, 'darwin').message).toBe('see <a href="http://evil.example">here</a> & <b>now</b>\\u0007');
  });
});

