import { EmptyState } from '../components/states';

export function NotFoundScreen() {
  return (
    <EmptyState title="Nothing here" action={<a className="button" href="#/">Go to the overview</a>}>
      This address does not match any page of the dashboard.
    </EmptyState>
  );
}
