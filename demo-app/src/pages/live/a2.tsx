import { Navigate, useSearchParams } from 'react-router';

/**
 * The anchor's console of a room (spec §2 live/a2?id=, a page of the native app): in the browser the room itself,
 * whose page carries the anchor's tools.
 */
export default function LiveConsole() {
  const [params] = useSearchParams();
  return <Navigate to={`/live/view?${new URLSearchParams({ id: params.get('id') ?? '' }).toString()}`} replace />;
}
