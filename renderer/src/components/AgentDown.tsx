import { formatInSentence } from '../lib/format';
import { useReachability } from '../lib/reachability';
import './AgentDown.css';

/**
 * A banner no one can miss while the agent does not answer: what is on screen is the last data
 * it sent, possibly long ago, and nothing new (a failure included) can show until it is back.
 */
export function AgentDownBanner() {
  const { unreachableSince, lastAnswerAt } = useReachability();
  if (unreachableSince === null) return null;
  return (
    <div className="agent-down" role="alert" data-testid="agent-down">
      <strong>Cronbeat’s agent is not answering</strong> since {formatInSentence(unreachableSince)}.{' '}
      {lastAnswerAt !== null ? <>What you see is from {formatInSentence(lastAnswerAt)} and may be out of date; </> : null}
      new failures cannot show until it is back. Retrying every few seconds.
    </div>
  );
}

/** True while the agent does not answer, for dimming the stale screen. */
export function useAgentDown(): boolean {
  return useReachability().unreachableSince !== null;
}
